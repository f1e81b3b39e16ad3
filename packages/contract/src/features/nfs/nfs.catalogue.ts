// nfs: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const nfsCatalogue = defineFeatureCatalogue({
  feature: 'nfs',
  errors: {
    nfs_export_not_found: {
      status: 404,
      en: 'There is no NFS export of this folder in the service.',
      lt: 'Paslaugoje nėra šio aplanko NFS eksporto.',
    },
    nfs_export_limit: {
      status: 409,
      en: 'The service already has as many NFS exports as it can hold. Delete an export first.',
      lt: 'Paslaugoje jau tiek NFS eksportų, kiek ji gali turėti. Pirmiausia ištrinkite eksportą.',
    },
    nfs_client_not_found: {
      status: 404,
      en: 'The NFS server does not know a client with this address.',
      lt: 'NFS serveris nežino kliento tokiu adresu.',
    },
    nfs_disconnect_unsupported: {
      status: 501,
      en: 'The storage node of this service cannot disconnect NFS clients yet. To cut a client off, change the export’s client or delete the export: it applies at once.',
      lt: 'Šios paslaugos saugojimo mazgas dar negali atjungti NFS klientų. Norėdami atjungti klientą, pakeiskite eksporto klientą arba ištrinkite eksportą: tai įsigalioja iš karto.',
    },
  },
  fieldErrors: {
    nfs_path_invalid: {
      en: 'Use folder names of letters, numbers, hyphens and underscores, separated by /',
      lt: 'Naudokite aplankų pavadinimus iš raidžių, skaičių, brūkšnelių ir pabraukimų, atskirtus /',
    },
    nfs_path_outside: {
      en: 'The folder must be inside the service’s storage: “..” and “.” are not allowed',
      lt: 'Aplankas turi būti paslaugos saugykloje: „..“ ir „.“ neleidžiami',
    },
    nfs_path_exported: {
      en: 'This folder is already exported. Edit its export instead',
      lt: 'Šis aplankas jau eksportuojamas. Verčiau pakeiskite jo eksportą',
    },
    nfs_client_invalid: {
      en: 'Use an IP address (192.168.1.10), a network (192.168.1.0/24) or a hostname',
      lt: 'Naudokite IP adresą (192.168.1.10), tinklą (192.168.1.0/24) arba kompiuterio vardą',
    },
    nfs_client_host_bits: {
      en: 'Use the network’s first address, such as 192.168.1.0/24',
      lt: 'Naudokite pirmąjį tinklo adresą, pavyzdžiui, 192.168.1.0/24',
    },
    nfs_owner_inactive: {
      en: 'This user is deactivated. Choose an active user or none',
      lt: 'Šis naudotojas išjungtas. Pasirinkite aktyvų naudotoją arba jokio',
    },
  },
  activity: {
    'NFS export created': {
      key: 'nfsExportCreated',
      en: 'NFS export created',
      lt: 'NFS eksportas sukurtas',
    },
    'NFS export updated': {
      key: 'nfsExportUpdated',
      en: 'NFS export updated',
      lt: 'NFS eksportas atnaujintas',
    },
    'NFS export deleted': {
      key: 'nfsExportDeleted',
      en: 'NFS export deleted',
      lt: 'NFS eksportas ištrintas',
    },
    'NFS client disconnected': {
      key: 'nfsClientDisconnected',
      en: 'NFS client disconnected',
      lt: 'NFS klientas atjungtas',
    },
    'NFS reloaded': {
      key: 'nfsReloaded',
      en: 'NFS exports reloaded on the node',
      lt: 'NFS eksportai iš naujo įkelti mazge',
    },
    'NFS synced': {
      key: 'nfsSynced',
      en: 'NFS configuration sent to the node again',
      lt: 'NFS konfigūracija iš naujo išsiųsta mazgui',
    },
  },
});
