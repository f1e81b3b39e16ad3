// labels: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';
import { LABEL_LIMIT } from './labels.ts';

export const labelsCatalogue = defineFeatureCatalogue({
  feature: 'labels',
  errors: {
    label_not_found: {
      status: 404,
      en: 'This service has no label with this key.',
      lt: 'Ši paslauga neturi etiketės su tokiu raktu.',
    },
    label_limit: {
      status: 409,
      en: `This service has as many labels as it may have (${LABEL_LIMIT}). Delete one first.`,
      lt: `Ši paslauga jau turi tiek etikečių, kiek gali (${LABEL_LIMIT}). Pirmiau ištrinkite vieną.`,
    },
  },
  fieldErrors: {
    label_key_invalid: {
      en: 'Use 1–63 lower-case letters, digits, dots, hyphens and underscores, starting and ending with a letter or digit',
      lt: 'Naudokite 1–63 mažąsias raides, skaitmenis, taškus, brūkšnelius ir pabraukimus; pradžioje ir pabaigoje – raidė arba skaitmuo',
    },
    label_value_invalid: {
      en: 'Use up to 63 letters, digits, dots, hyphens and underscores, starting and ending with a letter or digit',
      lt: 'Naudokite iki 63 raidžių, skaitmenų, taškų, brūkšnelių ir pabraukimų; pradžioje ir pabaigoje – raidė arba skaitmuo',
    },
  },
  activity: {
    'label set': {
      key: 'labelSet',
      en: 'Label set',
      lt: 'Nustatyta etiketė',
      sentence: { details: ['key', 'value'], en: 'Label {{key}}={{value}}', lt: 'Etiketė {{key}}={{value}}' },
    },
    'label removed': {
      key: 'labelRemoved',
      en: 'Label removed',
      lt: 'Pašalinta etiketė',
      sentence: { details: ['key', 'value'], en: 'Label {{key}}={{value}}', lt: 'Etiketė {{key}}={{value}}' },
    },
  },
});
