// users: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const usersCatalogue = defineFeatureCatalogue({
  feature: 'users',
  errors: {
    workspace_user_not_found: {
      status: 404,
      en: 'There is no user with this name in the service.',
      lt: 'Paslaugoje nėra naudotojo tokiu vardu.',
    },
    workspace_group_not_found: {
      status: 404,
      en: 'There is no group with this name in the service.',
      lt: 'Paslaugoje nėra grupės tokiu pavadinimu.',
    },
    workspace_member_not_found: {
      status: 404,
      en: 'This user is not a member of the group.',
      lt: 'Šis naudotojas nėra grupės narys.',
    },
    workspace_user_exists: {
      status: 409,
      en: 'The service already has a user with this name.',
      lt: 'Paslaugoje jau yra naudotojas tokiu vardu.',
    },
    workspace_group_exists: {
      status: 409,
      en: 'The service already has a group with this name.',
      lt: 'Paslaugoje jau yra grupė tokiu pavadinimu.',
    },
    workspace_user_limit: {
      status: 409,
      en: 'The service already has as many active users as its plan allows. Deactivate or delete a user, or choose a plan with more users.',
      lt: 'Paslaugoje jau tiek aktyvių naudotojų, kiek leidžia jos planas. Išjunkite arba ištrinkite naudotoją arba pasirinkite planą su daugiau naudotojų.',
    },
    workspace_group_limit: {
      status: 409,
      en: 'The service already has as many groups as it can hold. Delete a group first.',
      lt: 'Paslaugoje jau tiek grupių, kiek ji gali turėti. Pirmiausia ištrinkite grupę.',
    },
    workspace_ids_exhausted: {
      status: 409,
      en: 'The service has no free user or group ids left. Please contact support.',
      lt: 'Paslaugoje nebeliko laisvų naudotojų ar grupių identifikatorių. Susisiekite su pagalbos tarnyba.',
    },
  },
  fieldErrors: {
    workspace_name_characters: {
      en: 'Use only letters, numbers, hyphens and underscores',
      lt: 'Naudokite tik raides, skaičius, brūkšnelius ir pabraukimus',
    },
    workspace_name_lowercase: {
      en: 'Use lower-case letters: the name becomes a Unix and Samba name',
      lt: 'Naudokite mažąsias raides: pavadinimas tampa Unix ir Samba vardu',
    },
    workspace_name_start: {
      en: 'Must start with a letter',
      lt: 'Turi prasidėti raide',
    },
    workspace_name_reserved: {
      en: 'This name is reserved by the system. Please choose another',
      lt: 'Šis pavadinimas rezervuotas sistemai. Pasirinkite kitą',
    },
    workspace_user_unknown: {
      en: 'There is no user with this name in the service',
      lt: 'Paslaugoje nėra naudotojo tokiu vardu',
    },
    workspace_group_unknown: {
      en: 'There is no group with this name in the service',
      lt: 'Paslaugoje nėra grupės tokiu pavadinimu',
    },
    workspace_group_name_taken: {
      en: 'Another group of the service already has this name',
      lt: 'Kita paslaugos grupė jau turi tokį pavadinimą',
    },
  },
  activity: {
    'user created': {
      key: 'userCreated',
      en: 'User created',
      lt: 'Naudotojas sukurtas',
    },
    'user updated': {
      key: 'userUpdated',
      en: 'User updated',
      lt: 'Naudotojas atnaujintas',
    },
    'user password changed': {
      key: 'userPasswordChanged',
      en: 'User password changed',
      lt: 'Naudotojo slaptažodis pakeistas',
    },
    'user deleted': {
      key: 'userDeleted',
      en: 'User deleted',
      lt: 'Naudotojas ištrintas',
    },
    'user activated': {
      key: 'userActivated',
      en: 'User activated',
      lt: 'Naudotojas aktyvuotas',
    },
    'user deactivated': {
      key: 'userDeactivated',
      en: 'User deactivated',
      lt: 'Naudotojas išjungtas',
    },
    'group created': {
      key: 'groupCreated',
      en: 'Group created',
      lt: 'Grupė sukurta',
    },
    'group updated': {
      key: 'groupUpdated',
      en: 'Group updated',
      lt: 'Grupė atnaujinta',
    },
    'group deleted': {
      key: 'groupDeleted',
      en: 'Group deleted',
      lt: 'Grupė ištrinta',
    },
    'group member added': {
      key: 'groupMemberAdded',
      en: 'Group member added',
      lt: 'Grupės narys pridėtas',
    },
    'group member removed': {
      key: 'groupMemberRemoved',
      en: 'Group member removed',
      lt: 'Grupės narys pašalintas',
    },
    'group primary member unset': {
      key: 'groupPrimaryMemberUnset',
      en: 'Primary group membership removed',
      lt: 'Pagrindinės grupės narystė panaikinta',
    },
    'users and groups synced': {
      key: 'usersAndGroupsSynced',
      en: 'Users and groups sent to the node again',
      lt: 'Naudotojai ir grupės iš naujo išsiųsti mazgui',
    },
  },
});
