// backups: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const backupsCatalogue = defineFeatureCatalogue({
  feature: 'backups',
  errors: {
    backup_schedule_not_found: {
      status: 404,
      en: 'There is no backup schedule with this id in the service.',
      lt: 'Paslaugoje nėra atsarginių kopijų plano su šiuo ID.',
    },
    backup_schedule_limit: {
      status: 409,
      en: 'The service already has as many backup schedules as it can hold. Delete a schedule first.',
      lt: 'Paslauga jau turi tiek atsarginių kopijų planų, kiek gali. Pirmiausia ištrinkite planą.',
    },
    backup_schedule_provider_managed: {
      status: 409,
      en: 'The daily backup is kept by the provider: it can be run now, but not changed, paused or deleted.',
      lt: 'Kasdienę atsarginę kopiją prižiūri teikėjas: ją galima paleisti dabar, bet negalima keisti, pristabdyti ar ištrinti.',
    },
    backup_session_not_found: {
      status: 404,
      en: 'There is no backup with this id in the service.',
      lt: 'Paslaugoje nėra atsarginės kopijos su šiuo ID.',
    },
    backup_not_browsable: {
      status: 409,
      en: 'This backup cannot be opened: it has not completed, or its retention has removed it.',
      lt: 'Šios atsarginės kopijos atverti negalima: ji nebaigta arba ją jau pašalino saugojimo taisyklė.',
    },
    backup_path_not_found: {
      status: 404,
      en: 'This folder is not in the backup.',
      lt: 'Šio aplanko atsarginėje kopijoje nėra.',
    },
    backup_client_not_found: {
      status: 404,
      en: 'There is no backup client with this id in the service.',
      lt: 'Paslaugoje nėra atsarginių kopijų kliento su šiuo ID.',
    },
    backup_client_exists: {
      status: 409,
      en: 'The service already has a VPN login with this name (a VPN user or a backup client). Please choose another.',
      lt: 'Paslaugoje jau yra VPN prisijungimas tokiu vardu (VPN naudotojas arba atsarginių kopijų klientas). Pasirinkite kitą.',
    },
    backup_client_limit: {
      status: 409,
      en: 'The service already has as many backup clients as its plan has users. Delete a backup client, or choose a plan with more users.',
      lt: 'Paslaugoje jau tiek atsarginių kopijų klientų, kiek jos planas turi naudotojų. Ištrinkite klientą arba pasirinkite planą su daugiau naudotojų.',
    },
    backup_client_revoked: {
      status: 409,
      en: 'This backup client is disconnected: its VPN config no longer works. Add a new client instead.',
      lt: 'Šis atsarginių kopijų klientas atjungtas: jo VPN konfigūracija nebeveikia. Vietoj jo pridėkite naują klientą.',
    },
  },
  fieldErrors: {
    snapshot_path_invalid: {
      en: 'Use a path from the backup’s root, such as /shares/projects/report.txt',
      lt: 'Nurodykite kelią nuo atsarginės kopijos šaknies, pavyzdžiui, /shares/projects/report.txt',
    },
    time_zone_invalid: {
      en: 'Choose a time zone from the list',
      lt: 'Pasirinkite laiko juostą iš sąrašo',
    },
    backup_paths_required: {
      en: 'Choose at least one folder to back up',
      lt: 'Pasirinkite bent vieną aplanką kopijuoti',
    },
    backup_path_unknown: {
      en: 'There is no “{{name}}” in this service any more',
      lt: 'Paslaugoje nebėra „{{name}}“',
    },
    backup_keep_full_min: {
      en: 'Keep at least one full backup',
      lt: 'Laikykite bent vieną pilną kopiją',
    },
    restore_root: {
      en: 'Choose a file or folder inside the backup, not all of it',
      lt: 'Pasirinkite failą ar aplanką atsarginėje kopijoje, o ne visą kopiją',
    },
  },
  activity: {
    'Backup schedule created': {
      key: 'backupScheduleCreated',
      en: 'Backup schedule created',
      lt: 'Sukurtas atsarginių kopijų planas',
    },
    'Backup schedule updated': {
      key: 'backupScheduleUpdated',
      en: 'Backup schedule updated',
      lt: 'Pakeistas atsarginių kopijų planas',
    },
    'Backup schedule deleted': {
      key: 'backupScheduleDeleted',
      en: 'Backup schedule deleted',
      lt: 'Ištrintas atsarginių kopijų planas',
    },
    'Backup started': {
      key: 'backupStarted',
      en: 'Backup started',
      lt: 'Paleista atsarginė kopija',
    },
    'Backup failed': {
      key: 'backupFailed',
      en: 'Backup failed',
      lt: 'Nepavyko atsarginė kopija',
    },
    'Backup restore started': {
      key: 'backupRestoreStarted',
      en: 'Restore from a backup started',
      lt: 'Pradėtas atkūrimas iš atsarginės kopijos',
    },
    'Backup restore failed': {
      key: 'backupRestoreFailed',
      en: 'Restore from a backup failed',
      lt: 'Nepavyko atkūrimas iš atsarginės kopijos',
    },
    'Backup client added': {
      key: 'backupClientAdded',
      en: 'Backup client added',
      lt: 'Pridėtas atsarginių kopijų klientas',
    },
    'Backup client disconnected': {
      key: 'backupClientDisconnected',
      en: 'Backup client disconnected',
      lt: 'Atjungtas atsarginių kopijų klientas',
    },
    'Backup client deleted': {
      key: 'backupClientDeleted',
      en: 'Backup client deleted',
      lt: 'Ištrintas atsarginių kopijų klientas',
    },
  },
});
