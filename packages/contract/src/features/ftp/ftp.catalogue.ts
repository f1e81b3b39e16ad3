// ftp: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const ftpCatalogue = defineFeatureCatalogue({
  feature: 'ftp',
  errors: {},
  fieldErrors: {
    ftp_port_out_of_range: {
      en: 'Use a port from 1024 to 65535',
      lt: 'Nurodykite prievadą nuo 1024 iki 65535',
    },
    ftp_limit_not_positive: {
      en: 'Must be at least 1',
      lt: 'Turi būti ne mažiau kaip 1',
    },
    ftp_passive_range_reversed: {
      en: 'The last passive port cannot be below the first',
      lt: 'Paskutinis pasyvusis prievadas negali būti mažesnis už pirmąjį',
    },
    ftp_passive_range_too_small: {
      en: 'The passive port range needs two ports for each client: widen the range or allow fewer clients',
      lt: 'Pasyviųjų prievadų intervale reikia dviejų prievadų kiekvienam klientui: praplėskite intervalą arba leiskite mažiau klientų',
    },
    ftp_per_user_above_max_clients: {
      en: 'Cannot be more than the clients allowed in all',
      lt: 'Negali būti daugiau nei iš viso leidžiamų klientų',
    },
    ftp_anonymous_off: {
      en: 'Anonymous FTP is never offered',
      lt: 'Anoniminis FTP niekada nesiūlomas',
    },
  },
  activity: {
    'FTP user enabled': {
      key: 'ftpUserEnabled',
      en: 'FTP/SFTP access enabled',
      lt: 'FTP/SFTP prieiga įjungta',
    },
    'FTP user disabled': {
      key: 'ftpUserDisabled',
      en: 'FTP/SFTP access disabled',
      lt: 'FTP/SFTP prieiga išjungta',
    },
    'FTP permissions updated': {
      key: 'ftpPermissionsUpdated',
      en: 'FTP/SFTP rights changed',
      lt: 'FTP/SFTP teisės pakeistos',
    },
    'FTP settings updated': {
      key: 'ftpSettingsUpdated',
      en: 'FTP settings updated',
      lt: 'FTP nustatymai atnaujinti',
    },
    'FTP reloaded': {
      key: 'ftpReloaded',
      en: 'FTP configuration sent to the node again',
      lt: 'FTP konfigūracija iš naujo išsiųsta mazgui',
    },
  },
});
