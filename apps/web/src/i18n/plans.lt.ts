// Lithuanian texts of the plan picker, typed by the English shape (plans.en.ts). Lithuanian has
// more plural forms than English (1 mėnuo, 3 mėnesiai, 12 mėnesių); the extra ones come in by
// spread, which the English shape does not list.
import type { PlansMessages } from './plans.en.ts';

const ltPlurals = {
  months_few: '{{count}} mėnesiai',
  months_many: '{{count}} mėnesio',
  displayName_few: '{{name}} — {{disk}} GB saugyklos, {{count}} naudotojai',
  displayName_many: '{{name}} — {{disk}} GB saugyklos, {{count}} naudotojo',
};

const ltConfigurePlurals = {
  usersPrice_few: 'Kiekvieni papildomi {{count}} naudotojai: {{price}} per mėnesį be PVM.',
  usersPrice_many: 'Kiekvieni papildomi {{count}} naudotojo: {{price}} per mėnesį be PVM.',
};

export const plansLt: PlansMessages = {
  planPicker: {
    title: 'Pasirinkite planą',
    lead: 'Pasirinkite planą, tada nustatykite reikiamą saugyklą, naudotojų skaičių ir atsiskaitymo laikotarpį. Ilgesni laikotarpiai kainuoja mažiau.',
    loading: 'Įkeliami planai…',
    loadFailed: 'Nepavyko įkelti planų.',
    retry: 'Bandyti dar kartą',
    empty: 'Šiuo metu planai neparduodami.',
    perMonth: 'per mėnesį be PVM',
    storage: 'Saugykla',
    users: 'Naudotojai',
    address: 'Adresas',
    support: 'Pagalba',
    addressType: { nat: 'NAT IP', dedicated: 'Dedikuotas IP' },
    addresses: {
      title: 'NAT IP ar dedikuotas IP',
      nat: 'Darbo erdvė viešuoju adresu dalijasi su kitomis. Iš išorės ji pasiekiama tik per savo VPN: prisijungę jos bendrinamus aplankus naudojate VPN viduje.',
      dedicated:
        'Darbo erdvė turi savo viešąjį adresą. Be VPN, ji gali bendrinamus aplankus teikti ir tiesiogiai tuo adresu.',
    },
    supportType: { email: 'El. paštu', priority: 'Prioritetinė', '24/7': '24/7' },
    choose: 'Pasirinkti {{name}}',
    chooseShort: 'Pasirinkti',
    chosen: 'Pasirinkta',
    configure: {
      title: 'Plano {{name}} nustatymai',
      loading: 'Įkeliamos plano parinktys…',
      loadFailed: 'Nepavyko įkelti plano parinkčių.',
      disk: 'Disko vieta (GB)',
      diskHint: 'Įskaičiuota {{included}}; galima pridėti po {{step}}, iki {{max}}.',
      diskPrice: 'Kiekvieni papildomi {{step}}: {{price}} per mėnesį be PVM.',
      bandwidth: 'Duomenų srautas: {{amount}} GB (dvigubai daugiau nei disko vietos)',
      users: 'Naudotojai',
      usersHint: 'Įskaičiuota {{included}}; iki {{max}}.',
      usersPrice_one: 'Kiekvienas papildomas naudotojas: {{price}} per mėnesį be PVM.',
      usersPrice_other: 'Kiekvieni papildomi {{count}} naudotojų: {{price}} per mėnesį be PVM.',
      ...ltConfigurePlurals,
      period: 'Atsiskaitymo laikotarpis',
      discount: '−{{rate}}',
      noDiscount: 'Be nuolaidos',
    },
    months_one: '{{count}} mėnuo',
    months_other: '{{count}} mėnesių',
    displayName_one: '{{name}} — {{disk}} GB saugyklos, {{count}} naudotojas',
    displayName_other: '{{name}} — {{disk}} GB saugyklos, {{count}} naudotojų',
    ...ltPlurals,
    breakdown: {
      title: 'Kaina',
      basePrice: 'Bazinė kaina ({{months}})',
      options: 'Papildomi ištekliai',
      periodSubtotal: 'Laikotarpio suma',
      discount: 'Laikotarpio nuolaida ({{rate}})',
      subtotal: 'Suma po nuolaidos',
      credit: 'Panaudotas sąskaitos kreditas',
      vatRate: 'PVM tarifas',
      vatAmount: 'PVM',
      total: 'Iš viso',
      totalExclVat: 'Iš viso be PVM',
      exclVat: 'be PVM',
      exclVatNote: 'PVM bus pridėtas apmokant, kai žinosime jūsų šalį.',
      vatCountry: 'PVM pagal šalį: {{country}}.',
      reverseCharge:
        'Atvirkštinis apmokestinimas: PVM neskaičiuojamas, jį apskaito paslaugos gavėjas (Direktyvos 2006/112/EB 196 straipsnis).',
      outsideScope: 'Netaikomas ES PVM: PVM neskaičiuojamas.',
      noReverseCharge: {
        domestic:
          'Skaičiuojamas Lietuvos PVM: atvirkštinis apmokestinimas taikomas tik kitų ES šalių įmonėms.',
        noNumber:
          'PVM skaičiuojamas, nes jūsų įmonės duomenyse nėra PVM mokėtojo kodo. Ne Lietuvos įmonėms, turinčioms galiojantį ES PVM mokėtojo kodą, taikomas atvirkštinis apmokestinimas; norėdami pridėti savo kodą, susisiekite su pagalbos tarnyba.',
        format:
          'PVM skaičiuojamas, nes jūsų PVM mokėtojo kodas nėra galiojantis jūsų įmonės šalies kodas, todėl atvirkštinis apmokestinimas negali būti taikomas.',
        viesInvalid:
          'PVM skaičiuojamas, nes ES VIES registras nepatvirtina, kad jūsų PVM mokėtojo kodas galioja, todėl atvirkštinis apmokestinimas negali būti taikomas.',
        viesUnavailable:
          'PVM skaičiuojamas, nes ES VIES registras šiuo metu neatsakė, todėl jūsų PVM mokėtojo kodo patvirtinti nepavyko. Kai jis vėl atsakys, naujiems užsakymams bus taikomas atvirkštinis apmokestinimas.',
      },
      checking: 'Tikrinama kaina…',
      confirmed: 'Kaina patvirtinta',
      unconfirmed: 'Šiuo metu nepavyko patvirtinti kainos; ji bus patikrinta dar kartą apmokant.',
      invalid: 'Ištaisykite pažymėtus laukus, kad matytumėte kainą.',
    },
    continue: 'Tęsti',
  },
};
