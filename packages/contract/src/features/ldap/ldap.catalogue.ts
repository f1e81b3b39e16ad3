// ldap: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const ldapCatalogue = defineFeatureCatalogue({
  feature: 'ldap',
  errors: {
    ldap_user_not_found: {
      status: 404,
      en: 'There is no user with this name in the service.',
      lt: 'Paslaugoje nėra naudotojo tokiu vardu.',
    },
  },
  fieldErrors: {
    ldap_date_invalid: {
      en: 'Enter a date as YYYY-MM-DD',
      lt: 'Įveskite datą formatu MMMM-MM-DD',
    },
    ldap_date_past: {
      en: 'This date is already over. Choose today or a later day',
      lt: 'Ši diena jau praėjo. Pasirinkite šiandieną arba vėlesnę dieną',
    },
    ldap_user_unknown: {
      en: 'There is no user “{{name}}” in this service',
      lt: 'Paslaugoje nėra naudotojo „{{name}}“',
    },
    ldap_alias_invalid: {
      en: 'Use 1 to 63 lower-case letters, numbers and hyphens, not starting or ending with a hyphen',
      lt: 'Naudokite nuo 1 iki 63 mažųjų raidžių, skaitmenų ir brūkšnelių; brūkšnelis negali būti pirmas ar paskutinis',
    },
    ldap_alias_is_service_id: {
      en: 'This is the directory’s own base name already. Choose another alias',
      lt: 'Tai jau yra paties katalogo bazinis pavadinimas. Pasirinkite kitą sinonimą',
    },
  },
  activity: {
    'LDAP bind settings updated': {
      key: 'ldapBindSettingsUpdated',
      en: 'LDAP bind settings changed',
      lt: 'Pakeisti LDAP prisijungimo nustatymai',
    },
    'LDAP users updated': {
      key: 'ldapUsersUpdated',
      en: 'LDAP users changed (suspension or expiry)',
      lt: 'Pakeisti LDAP naudotojai (sustabdymas ar galiojimas)',
    },
    'LDAP alias changed': {
      key: 'ldapAliasChanged',
      en: 'LDAP base DN alias changed',
      lt: 'Pakeistas LDAP bazinio DN sinonimas',
    },
  },
});
