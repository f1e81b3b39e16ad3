// Lithuanian texts of a service's pages, typed by the English shape (workspace.en.ts).
// Lithuanian's extra plural forms (1 diena, 3 dienos, 10 dienų) come in by spread, which the
// English shape does not list.
import type { WorkspaceMessages } from './workspace.en.ts';

const applyPlurals = {
  summaryApplying_few: '{{count}} pakeitimai taikomi jūsų darbo erdvei…',
  summaryApplying_many: '{{count}} pakeitimo taikoma jūsų darbo erdvei…',
  summaryFailed_few: '{{count}} pakeitimų pritaikyti nepavyko.',
  summaryFailed_many: '{{count}} pakeitimo pritaikyti nepavyko.',
};
const noticePlurals = {
  expiringSoon_few: 'Ši paslauga baigs galioti po {{count}} dienų.',
  expiringSoon_many: 'Ši paslauga baigs galioti po {{count}} dienos.',
  critical_few:
    'Ši paslauga baigs galioti po {{count}} dienų. Pratęskite ją dabar, kad neprarastumėte prieigos prie duomenų.',
  critical_many:
    'Ši paslauga baigs galioti po {{count}} dienos. Pratęskite ją dabar, kad neprarastumėte prieigos prie duomenų.',
};
const goesDownPlurals = {
  samba_few: 'Samba: visi, prisijungę prie jos {{count}} bendrinamų aplankų adresu {{address}}, atjungiami',
  samba_many: 'Samba: visi, prisijungę prie jos {{count}} bendrinamo aplanko adresu {{address}}, atjungiami',
  vpn_few: 'VPN: nutrūksta {{count}} dabar prisijungę seansai',
  vpn_many: 'VPN: nutrūksta {{count}} dabar prisijungusio seanso',
  nfs_few: 'NFS: klientai, prijungę jos {{count}} eksportus, jų netenka',
  nfs_many: 'NFS: klientai, prijungę jos {{count}} eksporto, jų netenka',
};

export const workspaceLt: WorkspaceMessages = {
  applyStatus: {
    applied: 'Pritaikyta',
    applying: 'Taikoma…',
    failed: 'Nepritaikyta',
    summaryApplying_one: '{{count}} pakeitimas taikomas jūsų darbo erdvei…',
    summaryApplying_other: '{{count}} pakeitimų taikoma jūsų darbo erdvei…',
    summaryFailed_one: '{{count}} pakeitimo pritaikyti nepavyko.',
    summaryFailed_other: '{{count}} pakeitimų pritaikyti nepavyko.',
    ...applyPlurals,
    summaryApplied: 'Visi pakeitimai pritaikyti.',
  },
  resource: {
    loading: 'Įkeliama…',
    retry: 'Bandyti dar kartą',
    edit: 'Redaguoti',
    delete: 'Ištrinti',
    deleting: 'Trinama…',
    save: 'Išsaugoti',
    saving: 'Saugoma…',
    copy: 'Kopijuoti',
    copied: 'Nukopijuota',
    copyLabel: 'Kopijuoti: {{what}}',
  },
  daemon: {
    serving: 'Teikiama',
    changes: 'Pakeitimai',
    stateServing: 'Taip: {{name}} veikia, klientai gali prisijungti',
    stateNotServing: 'Ne: {{name}} paruošta, tačiau neveikia',
    stateNotServingReason: 'Ne: {{name}} paruošta, tačiau neveikia ({{reason}})',
    stateFailed: 'Ne: {{name}} nepavyko paleisti ar pakeisti',
    stateFailedReason: 'Ne: {{name}} nepavyko paleisti ar pakeisti ({{reason}})',
    stateWaiting: 'Laukiama saugyklos mazgo pranešimo',
    stateNotPlaced: 'Dar nepriskirta saugyklos mazgui',
    stateRestarting: 'Ne šiuo metu: darbo erdvė paleidžiama iš naujo',
    stateWorkspaceDown: 'Ne: darbo erdvė neveikia ({{state}})',
    stateNotNeeded: 'Nereikalinga: {{reason}}',
    statusFailed: 'Nepavyko įkelti {{name}} būsenos',
    reload: 'Įkelti iš naujo',
    reloading: 'Įkeliama iš naujo…',
    reloaded: '{{name}} konfigūracija dar kartą išsiųsta saugyklos mazgui.',
    reloadFailed: 'Nepavyko iš naujo įkelti {{name}}',
  },
  list: {
    filter: 'Filtruoti pagal pavadinimą',
    noMatch: 'Nieko neatitinka „{{query}}“.',
    pagination: 'Puslapiai',
    page: '{{page}} puslapis iš {{pages}}',
    previous: 'Ankstesnis',
    next: 'Kitas',
  },
  workspace: {
    nameHint:
      'Mažosios raidės, skaičiai, brūkšneliai ir pabraukimai; pradedama raide; ne daugiau kaip 32 simboliai.',
  },
  daemonName: {
    samba: 'Samba failų bendrinimas',
    vpn: 'VPN',
    nfs: 'NFS',
    ftp: 'FTP',
    sftp: 'SFTP',
    ldap: 'LDAP katalogas',
    backup: 'Atsarginės kopijos',
    'backup-clients': 'Įrenginių atsarginės kopijos',
    storage: 'Saugykla',
    network: 'Tinklas',
    users: 'Darbo erdvės naudotojai',
    'workspace-dir': 'Darbo erdvės aplankas',
  },
  goesDown: {
    intro: 'Nustoja veikti viskas, ką ji teikia:',
    samba_one: 'Samba: visi, prisijungę prie jos {{count}} bendrinamo aplanko adresu {{address}}, atjungiami',
    samba_other:
      'Samba: visi, prisijungę prie jos {{count}} bendrinamų aplankų adresu {{address}}, atjungiami',
    sambaAny: 'Samba: visi, prisijungę prie jos bendrinamų aplankų adresu {{address}}, atjungiami',
    vpn_one: 'VPN: nutrūksta {{count}} dabar prisijungęs seansas',
    vpn_other: 'VPN: nutrūksta {{count}} dabar prisijungusių seansų',
    vpnAny: 'VPN: nutrūksta visi dabar prisijungę seansai',
    nfs_one: 'NFS: klientai, prijungę jos {{count}} eksportą, jo netenka',
    nfs_other: 'NFS: klientai, prijungę jos {{count}} eksportų, jų netenka',
    nfsAny: 'NFS: klientai, prijungę jos eksportus, jų netenka',
    ftp: 'FTP ir SFTP: atviri seansai nutrūksta, vykstantys perdavimai sustoja',
    ldap: 'LDAP: jos katalogas nustoja atsakinėti, todėl juo besinaudojantys prisijungimai nepavyksta',
    ...goesDownPlurals,
  },
  serviceState: {
    awaitingPayment: 'Laukiama apmokėjimo',
    failed: 'Apmokėti nepavyko',
    preparing: 'Ruošiama',
    waitingForResources: 'Laukiama išteklių',
    active: 'Aktyvi',
    running: 'Veikia',
    restarting: 'Paleidžiama iš naujo…',
    degraded: 'Veikia su trikdžiais',
    offline: 'Nepasiekiama',
    stopped: 'Sustabdyta',
    locked: 'Užrakinta',
    cancelled: 'Atšaukta',
    terminated: 'Nutraukta',
    connected: 'Prisijungęs',
  },
  serviceNotice: {
    extend: 'Pratęsti',
    terminatesAt: 'Jei paslaugos nepratęsite, jos duomenys bus ištrinti {{date}}.',
    expiringSoon_one: 'Ši paslauga baigs galioti po {{count}} dienos.',
    expiringSoon_other: 'Ši paslauga baigs galioti po {{count}} dienų.',
    critical_one:
      'Ši paslauga baigs galioti po {{count}} dienos. Pratęskite ją dabar, kad neprarastumėte prieigos prie duomenų.',
    critical_other:
      'Ši paslauga baigs galioti po {{count}} dienų. Pratęskite ją dabar, kad neprarastumėte prieigos prie duomenų.',
    ...noticePlurals,
    awaitingPayment: 'Ši paslauga laukia apmokėjimo.',
    paymentFailed: 'Šios paslaugos apmokėti nepavyko.',
    retryPayment: 'Bandyti apmokėti dar kartą',
    retrying: 'Atidaromas mokėjimo puslapis…',
    retryFailed: 'Nepavyko pakartoti mokėjimo',
    processing: 'Jūsų darbo erdvė ruošiama. Paprastai ji paruošiama per minutę.',
    resourcePending:
      'Apmokėta, tačiau šiuo metu laisvos saugyklos nėra. Bandome iš naujo kas 2 minutes ir pranešime, kai viskas bus paruošta.',
    offlineNotServing:
      'Nepasiekiama: šiuo metu jos bendrinami aplankai neteikiami, todėl niekas negali prisijungti. Paleiskite darbo erdvę iš naujo jos apžvalgoje; jei ji lieka nepasiekiama ilgiau nei kelias minutes, susisiekite su pagalbos tarnyba.',
    degradedNodeSilent:
      'Veikia su trikdžiais: saugyklos mazgas, kuriame yra ši darbo erdvė, nustojo atsakinėti. Bendrinami aplankai gali būti vis dar teikiami, tačiau jų nematome, o pakeitimai laukia, kol mazgas vėl atsakys. Jūsų duomenys išsaugoti; iki tol paleidimas iš naujo nepadės. Jei tai truks ilgiau nei kelias minutes, susisiekite su pagalbos tarnyba.',
    degraded:
      'Veikia su trikdžiais: bendrinami aplankai teikiami, tačiau paskutinio pakeitimo (pvz., naujo disko dydžio) pritaikyti nepavyko. Paleiskite darbo erdvę iš naujo jos apžvalgoje, kad būtų bandoma dar kartą; jei trikdžiai išlieka, susisiekite su pagalbos tarnyba.',
    stopped:
      'Sustabdyta: niekas neteikiama ir niekas negali prisijungti; duomenys išsaugoti. Paleiskite ją jos apžvalgoje.',
    cancelled: 'Atšaukta: niekas neteikiama. Jos duomenys bus negrįžtamai ištrinti {{date}}.',
  },
  replica: {
    place: 'mazge {{node}}',
    placeUnknown: 'kitame mazge',
    inSync: 'Antroji kopija {{place}}: sinchronizuota {{when}}',
    inSyncUnknown: 'Antroji kopija {{place}}: sinchronizuota',
    syncing: 'Antroji kopija {{place}}: kuriama',
    behind: 'Antroji kopija {{place}}: atsilieka, paskutinį kartą sinchronizuota {{when}}',
    behindNever: 'Antroji kopija {{place}}: atsilieka, dar nesinchronizuota',
    justNow: 'ką tik',
  },
  serviceCard: {
    manage: 'Tvarkyti',
    applying: 'Taikomi pakeitimai…',
  },
  serviceDetail: {
    loading: 'Įkeliama paslauga…',
    loadFailed: 'Nepavyko įkelti paslaugos informacijos',
    idMissing: 'Trūksta paslaugos ID',
    backToServices: 'Atgal į paslaugas',
    tabs: 'Paslaugos skyriai',
  },
  network: {
    nodeOnlyTitle: 'Pasiekiama tik iš šio kompiuterio.',
    nodeOnly:
      'Saugojimo mazgas į šią darbo erdvę atsako tik pats sau: VPN, Samba, NFS ir FTP klientai kituose kompiuteriuose prisijungti negali, nors programos veikia.',
    howToOpen:
      'Kad ji būtų pasiekiama, mazgo administratorius nurodo AGENT_CLIENT_ROUTES klientų tinklus (0.0.0.0/0 – bet kokius) ir iš naujo paleidžia agentą (žr. README).',
    routes: 'Klientai gali prisijungti iš {{routes}}.',
    vpnOnlyTitle: 'Pirmiausia prisijunkite prie VPN.',
    vpnOnly:
      'Šio plano adresas yra NAT: darbo erdvės adresu atsako tik VPN. Samba, NFS, FTP, SFTP ir LDAP atsako VPN viduje, adresu {{address}}, kai VPN naudotojas prisijungęs.',
    servingNodeOnly:
      'Taip, tik šiam kompiuteriui: {{name}} veikia, bet kitų kompiuterių klientai jo nepasiekia',
    bandwidthTitle: 'Šio mėnesio duomenų srautas',
    bandwidthLabel: 'Išnaudotas srautas',
    bandwidthText: '{{used}} iš {{limit}} ({{percent}} %)',
    bandwidthPeriod:
      'Nuo {{start}} iki {{end}}, abiem kryptimis ({{received}} gauta, {{sent}} išsiųsta); iš naujo skaičiuojama nuo {{end}}.',
    bandwidthWarning:
      'Išnaudota {{percent}} %: išnaudojus visą srautą, tinklas bus sulėtintas iki {{rate}} Mbit/s iki {{end}}. Failai liks pasiekiami.',
    throttled:
      'Srautas išnaudotas: tinklas sulėtintas iki {{rate}} Mbit/s kiekviena kryptimi iki {{end}}. Failai lieka pasiekiami; didesnis planas suteikia daugiau srauto.',
    notMeasured: 'Dar neišmatuota: paslauga dar neperkelta į saugojimo mazgą.',
    loadFailed: 'Nepavyko įkelti duomenų srauto.',
  },
};
