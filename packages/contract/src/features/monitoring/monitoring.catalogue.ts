// monitoring: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const monitoringCatalogue = defineFeatureCatalogue({
  feature: 'monitoring',
  errors: {
    webhook_not_set: {
      status: 404,
      en: 'No webhook URL is set for alerts.',
      lt: 'Įspėjimų webhook adresas nenustatytas.',
    },
  },
  fieldErrors: {
    webhook_url_not_public: {
      en: 'Enter an address on the public internet (not a private or local one)',
      lt: 'Įveskite viešojo interneto adresą (ne privatų ar vietinį)',
    },
  },
  activity: {},
});
