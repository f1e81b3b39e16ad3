// samba: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const sambaCatalogue = defineFeatureCatalogue({
  feature: 'samba',
  errors: {
    samba_share_not_found: {
      status: 404,
      en: 'There is no Samba share with this name in the service.',
      lt: 'Paslaugoje nėra Samba bendrinamo aplanko tokiu pavadinimu.',
    },
    samba_share_user_not_found: {
      status: 404,
      en: 'This user has no access to the share.',
      lt: 'Šis naudotojas neturi prieigos prie bendrinamo aplanko.',
    },
    samba_share_exists: {
      status: 409,
      en: 'The service already has a Samba share with this name.',
      lt: 'Paslaugoje jau yra Samba bendrinamas aplankas tokiu pavadinimu.',
    },
    samba_share_user_exists: {
      status: 409,
      en: 'This user already has access to the share. Change their permissions instead.',
      lt: 'Šis naudotojas jau turi prieigą prie bendrinamo aplanko. Verčiau pakeiskite jo teises.',
    },
    samba_share_limit: {
      status: 409,
      en: 'The service already has as many Samba shares as it can hold. Delete a share first.',
      lt: 'Paslaugoje jau tiek Samba bendrinamų aplankų, kiek ji gali turėti. Pirmiausia ištrinkite bendrinamą aplanką.',
    },
    samba_guest_share_public: {
      status: 422,
      en: 'A share open to guests cannot be served on the public IP address. Turn off guest access or the public address.',
      lt: 'Svečiams atviro bendrinamo aplanko negalima teikti viešuoju IP adresu. Išjunkite svečių prieigą arba viešąjį adresą.',
    },
    samba_public_ip_not_in_plan: {
      status: 422,
      en: 'This plan has a shared (NAT) address: its shares are reachable through the VPN only. Choose a plan with a dedicated IP to serve a share on a public address.',
      lt: 'Šio plano adresas bendras (NAT): jo bendrinami aplankai pasiekiami tik per VPN. Kad aplanką teiktumėte viešuoju adresu, pasirinkite planą su skirtuoju IP.',
    },
  },
  fieldErrors: {
    share_path_invalid: {
      en: 'Use a folder inside the service: names of letters, numbers, hyphens and underscores separated by /',
      lt: 'Nurodykite aplanką paslaugos viduje: raidžių, skaičių, brūkšnelių ir pabraukimų pavadinimus, atskirtus /',
    },
    share_path_reserved: {
      en: 'This folder is kept for the system (home, backups, system). Please choose another',
      lt: 'Šis aplankas skirtas sistemai (home, backups, system). Pasirinkite kitą',
    },
    share_permissions_need_read: {
      en: 'Write, execute and admin need read permission too. With no permission at all the user is kept out of the share, even through a group',
      lt: 'Rašymo, vykdymo ir administravimo teisėms reikia ir skaitymo teisės. Be jokių teisių naudotojas į bendrinamą aplanką neįleidžiamas, net per grupę',
    },
    samba_workgroup_invalid: {
      en: 'Use 1 to 15 letters, numbers, hyphens and underscores',
      lt: 'Naudokite nuo 1 iki 15 raidžių, skaičių, brūkšnelių ir pabraukimų',
    },
    samba_server_string_invalid: {
      en: "Use letters, numbers, spaces and . , _ ( ) ' - only",
      lt: "Naudokite tik raides, skaičius, tarpus ir . , _ ( ) ' -",
    },
  },
  activity: {
    'Samba share created': {
      key: 'sambaShareCreated',
      en: 'Samba share created',
      lt: 'Samba bendrinamas aplankas sukurtas',
    },
    'Samba share updated': {
      key: 'sambaShareUpdated',
      en: 'Samba share updated',
      lt: 'Samba bendrinamas aplankas atnaujintas',
    },
    'Samba share deleted': {
      key: 'sambaShareDeleted',
      en: 'Samba share deleted',
      lt: 'Samba bendrinamas aplankas ištrintas',
    },
    'Samba share user added': {
      key: 'sambaShareUserAdded',
      en: 'Samba share user added',
      lt: 'Samba bendrinamo aplanko naudotojas pridėtas',
    },
    'Samba share user removed': {
      key: 'sambaShareUserRemoved',
      en: 'Samba share user removed',
      lt: 'Samba bendrinamo aplanko naudotojas pašalintas',
    },
    'Samba share permissions updated': {
      key: 'sambaSharePermissionsUpdated',
      en: 'Samba share permissions updated',
      lt: 'Samba bendrinamo aplanko teisės atnaujintos',
    },
    'Samba reloaded': {
      key: 'sambaReloaded',
      en: 'Samba reloaded',
      lt: 'Samba konfigūracija įkelta iš naujo',
    },
    'Samba settings updated': {
      key: 'sambaSettingsUpdated',
      en: 'Samba settings updated',
      lt: 'Samba nustatymai atnaujinti',
    },
  },
});
