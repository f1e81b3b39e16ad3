// Lithuanian texts of the Settings tab: name, description, reminders, plan and ending the service, typed by the English shape (settings.en.ts).
import type { SettingsTabMessages } from './settings.en.ts';

export const settingsTabLt: SettingsTabMessages = {
  serviceSettings: {
    generalTitle: 'Pavadinimas ir aprašymas',
    name: 'Paslaugos pavadinimas',
    description: 'Aprašymas',
    saved: 'Išsaugota.',
    updateFailed: 'Nepavyko atnaujinti paslaugos',
    remindersTitle: 'Priminimai',
    expiryReminders: 'Priminti el. paštu prieš baigiantis šios paslaugos galiojimui',
    expiryRemindersHint:
      'Priminimas, kai galiojimas netrukus baigsis, ir dar vienas, kai liks labai mažai laiko.',
    renewalTitle: 'Automatinis pratęsimas',
    autoRenew: 'Automatiškai pratęsti šią paslaugą išsaugota kortele',
    autoRenewHint:
      'Išsaugota kortelė apmokestinama likus {{days}} d. iki paslaugos pabaigos, dabartine jos plano ir laikotarpio kaina. Be išsaugotos kortelės niekas neapmokestinama.',
    configureFailed: 'Nepavyko sukonfigūruoti paslaugos',
    loadFailed: 'Nepavyko įkelti paslaugos nustatymų',
    planTitle: 'Planas',
    planBody:
      'Ši paslauga naudoja planą {{plan}}. Planą, disko vietą ar naudotojų skaičių keiskite planų puslapyje.',
    changePlan: 'Keisti planą',
    endTitle: 'Paslaugos pabaiga',
    endLead: 'Atšaukimo ar nutraukimo atšaukti nebegalima.',
    cancel: 'Atšaukti paslaugą',
    cancelHint: 'Ji sustabdoma dabar; duomenys saugomi {{days}} d., tada ištrinami.',
    terminate: 'Nutraukti ir ištrinti duomenis',
    terminateHint: 'Ji sustabdoma ir jos duomenys ištrinami dabar.',
    keep: 'Palikti paslaugą',
    cancelConfirmTitle: 'Atšaukti {{name}}?',
    cancelConfirmBody:
      'Ji sustabdoma dabar: niekas neteikiama ir niekas negali prisijungti. Duomenys saugomi iki {{date}}, tada negrįžtamai ištrinami. Atšauktos paslaugos nebegalima pratęsti ar vėl paleisti.',
    cancelling: 'Atšaukiama…',
    cancelFailed: 'Nepavyko atšaukti paslaugos',
    terminateConfirmTitle: 'Nutraukti {{name}}?',
    terminateConfirmBody:
      'Ji sustabdoma dabar, o jos duomenys (failai, naudotojai ir bendrinami aplankai) negrįžtamai ištrinami šiandien, {{date}}. Šio veiksmo atšaukti negalima.',
    terminateTypeName: 'Patvirtinkite įvesdami paslaugos pavadinimą',
    terminateNameMismatch: 'Įveskite pavadinimą tiksliai taip, kaip parodyta: {{name}}',
    terminating: 'Nutraukiama…',
    terminateFailed: 'Nepavyko nutraukti paslaugos',
  },
};
