// Lietuviški etikečių skirtuko tekstai (vardų sritis `labelsTab`).
import type { LabelsTabMessages } from './labels.en.ts';

export const labelsTabLt: LabelsTabMessages = {
  title: 'Etiketės',
  lead: 'Raktas=reikšmė poros, pagal kurias grupuojate ir randate savo paslaugas, pavyzdžiui, env=prod arba team=finance. Jas matote tik jūs; pati paslauga nesikeičia.',
  counter: '{{count}} iš {{limit}}',
  add: 'Pridėti etiketę',
  empty: 'Etikečių dar nėra.',
  loadFailed: 'Nepavyko įkelti etikečių',
  key: 'Raktas',
  keyHint: 'Mažosios raidės, skaitmenys, taškai, brūkšneliai ir pabraukimai, pavyzdžiui, env arba team.name',
  value: 'Reikšmė',
  valueHint: 'Raidės, skaitmenys, taškai, brūkšneliai ir pabraukimai; galima palikti tuščią',
  noValue: '(tuščia)',
  createTitle: 'Pridėti etiketę',
  editTitle: 'Keisti etiketę {{name}}',
  create: 'Pridėti etiketę',
  createFailed: 'Nepavyko pridėti etiketės',
  updateFailed: 'Nepavyko pakeisti etiketės',
  deleteTitle: 'Pašalinti etiketę {{name}}?',
  deleteBody: 'Paslaugos nebebus galima rasti pagal šią etiketę.',
  deleteFailed: 'Nepavyko pašalinti etiketės',
};
