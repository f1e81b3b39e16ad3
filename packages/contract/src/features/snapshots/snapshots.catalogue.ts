// snapshots: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const snapshotsCatalogue = defineFeatureCatalogue({
  feature: 'snapshots',
  errors: {
    snapshot_too_soon: {
      status: 429,
      en: 'A snapshot of this service was taken less than a minute ago. Please wait a moment and try again.',
      lt: 'Šios paslaugos momentinė kopija padaryta mažiau nei prieš minutę. Šiek tiek palaukite ir bandykite dar kartą.',
    },
    snapshots_unsupported: {
      status: 409,
      en: 'This service’s storage cannot take snapshots yet: it will once it is moved to the new storage.',
      lt: 'Šios paslaugos saugykla kol kas negali daryti momentinių kopijų: galės, kai bus perkelta į naują saugyklą.',
    },
    snapshot_not_found: {
      status: 404,
      en: 'This snapshot is no longer kept (older ones are removed as new ones are taken).',
      lt: 'Ši momentinė kopija nebesaugoma (senesnės šalinamos, kai daromos naujos).',
    },
    snapshot_path_not_found: {
      status: 404,
      en: 'This is not in the snapshot.',
      lt: 'To momentinėje kopijoje nėra.',
    },
  },
  fieldErrors: {},
  activity: {
    'Snapshot taken': {
      key: 'snapshotTaken',
      en: 'Snapshot taken',
      lt: 'Padaryta momentinė kopija',
    },
  },
});
