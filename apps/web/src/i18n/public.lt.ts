// Lithuanian texts of the public site's pages, typed by the English shape (public.en.ts).
import type { PublicMessages } from './public.en.ts';

export const publicLt: PublicMessages = {
  common: {
    seePlans: 'Peržiūrėti planus',
    contactUs: 'Susisiekite su mumis',
    readDocs: 'Skaityti dokumentaciją',
    onThisPage: 'Šiame puslapyje',
    lastUpdated: 'Atnaujinta: 2026 m. sausio 1 d.',
  },
  about: {
    title: 'Apie Debesis',
    lead: 'Esame duomenų centro įmonė, nuo 2007 m. prižiūrinti serverius Lietuvos verslui. Debesis – tai ta pati patirtis, kaip paslauga, kurią užsisakysite per kelias minutes.',
    storyTitle: 'Mūsų istorija',
    story1:
      'Pradėjome 2007 m. nuo kelių serverių spintų ir pažado pirmiesiems klientams: jų duomenis saugosime taip pat rūpestingai kaip savo. Nuo tada talpiname failų serverius, paštą ir svetaines įvairaus dydžio įmonėms.',
    story2:
      'Per tuos metus vis grįždavo tie patys klausimai: kaip mažai komandai saugiai dalytis failais, pasiekti juos iš namų ir niekada jų neprarasti? Debesis – mūsų atsakymas: privati darbo erdvė su {{features}}, veikianti mūsų pačių įrangoje ir valdoma jūsų iš vienos valdymo skydelio.',
    storyParts: { samba: 'bendrais diskais', vpn: 'VPN', backups: 'atsarginėmis kopijomis' },
    factsTitle: 'Debesis skaičiais',
    factYears: 'Serverius prižiūrime nuo',
    factYearsValue: '2007',
    factBackups: 'Automatinės atsarginės kopijos saugomos',
    factBackupsValue: '7 dienas',
    factDrives: 'Diskai iki',
    factDrivesValue: '16 TB',
    factSupport: 'Pagalba didesniuose planuose',
    factSupportValue: '24/7',
    valuesTitle: 'Kas mums svarbu',
    valueSafetyTitle: 'Jūsų duomenys lieka jūsų',
    valueSafetyBody:
      'Kiekviena darbo erdvė turi savo saugyklą, savo adresą ir savo paslaugas. Niekuo nesidalijama su kitais klientais, o į jūsų failus mes nežiūrime.',
    valueEuTitle: 'Talpinama ES',
    valueEuBody:
      'Jūsų duomenys saugomi mūsų duomenų centre Lietuvoje, taikant ES duomenų apsaugos teisę, įrangoje, kurią patys valdome ir prižiūrime.',
    valuePeopleTitle: 'Atsako žmonės',
    valuePeopleBody:
      'Kai mums parašote, jūsų laišką skaito sistemą išmanantis inžinierius. Atsakome per 24 valandas, o darbo dienomis – daug greičiau.',
    ctaTitle: 'Norite sužinoti daugiau?',
    ctaBody: 'Papasakokite, ko reikia jūsų komandai, ir pasiūlysime tinkamą planą.',
  },
  contact: {
    title: 'Susisiekite su mumis',
    lead: 'Klausimai apie planus, duomenų perkėlimą ar jau turimą paslaugą? Parašykite mums – atsakys inžinierius.',
    replyPromise: 'Atsakome per 24 valandas.',
    hoursTitle: 'Darbo laikas',
    hours: 'Pirmadienis–penktadienis, 9:00–18:00 EET',
    hoursNote: 'OPTIMIZED ir BIG ONE planų klientams gedimų atveju pagalba teikiama 24/7.',
    emailTitle: 'El. paštas',
    formTitle: 'Parašykite mums',
    name: 'Jūsų vardas',
    email: 'El. pašto adresas',
    subject: 'Tema',
    message: 'Žinutė',
    messageHint: 'Bent 10 simbolių. Nesiųskite slaptažodžių.',
    submit: 'Siųsti žinutę',
    submitting: 'Siunčiama…',
    sentTitle: 'Ačiū, jūsų žinutė išsiųsta',
    sentBody: 'Jūsų žinutę gavome ir atsakysime adresu {{email}} per 24 valandas.',
    sendAnother: 'Siųsti kitą žinutę',
    failed: 'Jūsų žinutės išsiųsti nepavyko. Pabandykite vėliau arba parašykite mums el. paštu {{email}}.',
    failedNoAddress:
      'Jūsų žinutės išsiųsti nepavyko. Pabandykite vėliau arba parašykite mūsų pagalbos tarnybai el. paštu.',
    tooMany:
      'Per trumpą laiką išsiuntėte kelias žinutes. Pabandykite vėliau arba parašykite mums el. paštu {{email}}.',
  },
  faq: {
    title: 'Dažniausiai užduodami klausimai',
    lead: 'Trumpi atsakymai į tai, ko mūsų klausia dažniausiai. Neradote savo klausimo? Susisiekite su mumis.',
    items: {
      whatIs: {
        q: 'Ką tiksliai gaunu su planu?',
        a: 'Privačią darbo erdvę mūsų serveriuose: nustatyto dydžio saugyklą, naudotojų skaičių, IP adresą ir paslaugas failams pasiekti: {{services}}.',
        serviceParts: {
          samba: 'Samba (bendrinimas Windows ir macOS)',
          nfs: 'NFS',
          ftp: 'FTP/SFTP',
          vpn: 'OpenVPN',
        },
        aBackups: 'Kasdienės atsarginės kopijos įskaičiuotos.',
      },
      setupTime: {
        q: 'Kada galėsiu naudotis darbo erdve?',
        a: 'Po mokėjimo kortele darbo erdvė paprastai paruošiama per minutę. Jei tuo metu laisvų išteklių nėra, sistema bando kas 2 minutes ir praneša el. paštu, kai viskas paruošta.',
      },
      backups: {
        q: 'Ar mano failams daromos atsarginės kopijos?',
        a: 'Taip. Kiekvienai darbo erdvei kasdien automatiškai darome atsarginę kopiją ir ją saugome 7 dienas. Galite pridėti ir savo tvarkaraščius: kasdien, kas savaitę ar kas mėnesį, su savo saugojimo taisyklėmis.',
      },
      grow: {
        q: 'Ar vėliau galiu pakeisti planą?',
        a: 'Taip. Padidinti planą galite bet kada ir sumokate tik proporcingą skirtumą už likusį atsiskaitymo laikotarpį. Sumažinti galima, jei dabartiniai naudotojai ir failai telpa į mažesnį planą.',
      },
      where: {
        q: 'Kur saugomi mano duomenys?',
        a: 'Mūsų pačių duomenų centre Lietuvoje, Europos Sąjungoje. Jūsų duomenys nekopijuojami už ES ribų.',
      },
      devices: {
        q: 'Kokie įrenginiai gali prisijungti?',
        a: 'Bet kuris kompiuteris su Windows, macOS ar Linux. Dokumentacijoje parodyta, kaip prisijungti iš kiekvieno jų.',
        aMobile: 'Telefonai ir planšetės jungiasi per OpenVPN ir SFTP programėles.',
      },
      payment: {
        q: 'Kaip mokėti ir ar gausiu sąskaitas faktūras?',
        a: 'Mokate kortele. Už kiekvieną mokėjimą išrašoma sąskaita faktūra, kurią galite peržiūrėti ir atsisiųsti PDF formatu atsiskaitymų skiltyje. Ilgesniems atsiskaitymo laikotarpiams taikoma nuolaida.',
      },
      expiry: {
        q: 'Kas bus, jei nepratęsiu paslaugos?',
        a: 'Pasibaigusi paslauga nebesuteikia prieigos, tačiau jūsų duomenys dar kurį laiką saugomi. Pratęskite paslaugą per tą laiką, kad atgautumėte prieigą; vėliau duomenys ištrinami.',
      },
      cancel: {
        q: 'Ar verslo paskyrą galima vėl paversti asmenine?',
        a: 'Ne. Asmeninės paskyros pavertimas verslo paskyra yra galutinis. Įmonės duomenis gali pataisyti mūsų pagalbos tarnyba.',
      },
    },
  },
  docs: {
    title: 'Dokumentacija',
    lead: 'Kaip prisijungti prie darbo erdvės. Jūsų darbo erdvės adresas, naudotojai ir bendrinami aplankai nurodyti jos puslapyje valdymo skydelyje.',
    placeholders:
      'Pavyzdžiuose vietoje ADDRESS įrašykite savo darbo erdvės IP adresą, vietoje SHARE – bendrinamo aplanko pavadinimą, o vietoje USER – vieną iš darbo erdvės naudotojų.',
    smb: {
      title: 'Samba (SMB) bendrinami aplankai',
      intro:
        'Samba – tai failų bendrinimas, įdiegtas Windows ir macOS sistemose. Samba skirtuke sukurkite bendrinamą aplanką ir suteikite naudotojams teises, tada prisijunkite:',
      windowsTitle: 'Windows',
      windows:
        'Atidarykite failų naršyklę, dešiniuoju pelės klavišu spustelėkite „Šis kompiuteris“ ir pasirinkite „Prijungti tinklo diską“. Pasirinkite disko raidę, įveskite žemiau nurodytą aplanką, pažymėkite „Jungtis naudojant kitus kredencialus“ ir prisijunkite darbo erdvės naudotojo vardu ir slaptažodžiu.',
      macTitle: 'macOS',
      mac: 'Finder programoje pasirinkite Go → Connect to Server (⌘K), įveskite žemiau nurodytą adresą ir spustelėkite Connect. Prisijunkite kaip „Registered User“ darbo erdvės naudotojo vardu ir slaptažodžiu.',
      linuxTitle: 'Linux',
      linux:
        'Įdiekite paketą cifs-utils ir prijunkite bendrinamą aplanką. Norėdami išbandyti neprijungę, failus galite peržiūrėti ir kopijuoti su smbclient.',
    },
    nfs: {
      title: 'NFS eksportai',
      intro:
        'NFS tinka Linux serveriams, kuriems failai reikalingi kaip vietinis aplankas. NFS skirtuke sukurkite eksportą ir leiskite savo serverio IP adresą ar tinklą (pavyzdžiui, /24 diapazoną) su tik skaitymo ar skaitymo ir rašymo prieiga. Tada serveryje:',
      fstab: 'Kad aplankas būtų prijungiamas kiekvieno paleidimo metu, į /etc/fstab įrašykite šią eilutę:',
    },
    ftp: {
      title: 'FTP ir SFTP',
      intro:
        'Kai tik galite, naudokite SFTP: jis šifruojamas ir veikia per daugumą užkardų. FTP skirtas senesniems įrenginiams, pavyzdžiui, skeneriams ir kameroms; kai klientas palaiko, naudojamas aiškus TLS (FTPS).',
      clients:
        'FileZilla, WinSCP ar Cyberduck programoje sukurkite naują svetainę: protokolas SFTP, serveris ADDRESS, prievadas 22, darbo erdvės naudotojo vardas ir slaptažodis. FTP atveju pasirinkite FTP su „aiškiu TLS“, prievadas 21. Iš terminalo:',
      permissions:
        'Kiekvieno naudotojo prieiga (skaitymas ir rašymas arba tik skaitymas) nustatoma FTP skirtuke ir galioja ir FTP, ir SFTP.',
    },
    vpn: {
      title: 'VPN (OpenVPN)',
      intro:
        'VPN įjungia jūsų kompiuterį į privatų darbo erdvės tinklą, todėl bendrinamus aplankus saugiai pasieksite iš bet kur. VPN skirtuke pridėkite VPN naudotoją ir atsisiųskite jo profilį (.ovpn failą). Kiekvienas žmogus turėtų turėti savo profilį.',
      desktop:
        'Windows ir macOS: įdiekite OpenVPN Connect, pasirinkite „Import profile“, nurodykite .ovpn failą ir prisijunkite. Telefonuose ir planšetėse .ovpn failą atidarykite programėle OpenVPN Connect.',
      linux: 'Linux: importuokite profilį į NetworkManager arba paleiskite jį iš terminalo:',
      revoke:
        'Jei nešiojamasis kompiuteris pamestas, ištrinkite arba išjunkite to VPN naudotojo prieigą: jo profilis iškart nustoja veikti, o aktyvūs seansai atjungiami.',
    },
    backups: {
      title: 'Kaip veikia atsarginės kopijos',
      automatic:
        'Automatinės atsarginės kopijos: kiekvienai darbo erdvei atsarginę kopiją darome kasdien ir kiekvieną saugome 7 dienas. Nieko nustatinėti nereikia – jos apsaugo nuo klaidų ir įrangos gedimų.',
      ownTitle: 'Jūsų tvarkaraščiai',
      own: 'Atsarginių kopijų skirtuke galite pridėti savo tvarkaraščius svarbiausiems aplankams: Samba bendrinamiems aplankams, naudotojų namų aplankams ar NFS eksportams. Pasirinkite, kaip dažnai daryti kopiją ir kiek pilnų bei prieauginių kopijų saugoti. Paruošti variantai:',
      presetDaily: 'Kasdien 2:00',
      presetWeekly: 'Kas savaitę sekmadienį 2:00',
      presetMonthly: 'Kas mėnesį 1 d. 2:00',
      restore:
        'Istorijoje matyti kiekviena atsarginė kopija: tipas (pilna ar prieauginė), būsena, dydis ir failų skaičius. Kopiją galite naršyti ir atkurti atskirus failus ar visus aplankus, paleisti tvarkaraštį iškart, jį pristabdyti ir vėl tęsti.',
      subusers:
        'Jei atsarginėmis kopijomis rūpinasi kitas žmogus, sukurkite jam papildomą naudotoją: ribotą paskyrą, kuri pasiekia tik atsarginių kopijų funkcijas, su galimu dviejų veiksnių tapatybės patvirtinimu.',
    },
  },
  privacy: {
    title: 'Privatumo politika',
    lead: 'Kokius asmens duomenis Debesis saugo, kodėl, kiek laiko ir ko galite iš mūsų prašyti.',
    sections: {
      controller: {
        title: 'Kas mes esame',
        body: 'Čia aprašytų asmens duomenų valdytoja yra Debesis (UAB „Debesis“, Vilnius, Lietuva). Su mumis galite susisiekti per kontaktų puslapį arba pagalbos tarnybos el. paštu.',
      },
      data: {
        title: 'Ką saugome',
        body: 'Jūsų paskyros duomenis (vardą, el. pašto adresą, šalį, o verslo paskyrų – ir įmonės duomenis), atsiskaitymo informaciją ir sąskaitas faktūras, prisijungimų ir valdymo istoriją (laiką, veiksmą ir IP adresą) bei jūsų mums siunčiamas žinutes. Jūsų darbo erdvėje laikomų failų neskaitome.',
      },
      purposes: {
        title: 'Kodėl saugome',
        body: 'Kad teiktume užsakytą paslaugą, išrašytume už ją sąskaitas, kaip reikalauja įstatymai, apsaugotume jūsų paskyrą (pavyzdžiui, pastebėtume neįprastus prisijungimus) ir atsakytume į jūsų klausimus.',
      },
      cookies: {
        title: 'Slapukai ir analitika',
        body: 'Būtina naršyklės saugykla išlaiko jus prisijungusius, saugo formas nuo klastojimo ir įsimena jūsų kalbą, temą ir slapukų pasirinkimą. Tik jei pasirenkate „Leisti visus“, skaičiuojame ir puslapių peržiūras bei kelis paspaudimus, pavyzdžiui, ant kvietimų veikti, kad patobulintume svetainę. Šie skaičiai neturi nei vardo, nei paskyros, nei IP adreso ir saugomi mūsų pačių serveriuose. Pasirinkimą bet kada pakeisite nuoroda „Slapukų nustatymai“ kiekvieno puslapio apačioje.',
      },
      retention: {
        title: 'Kiek laiko saugome',
        body: 'Paskyros duomenis – kol egzistuoja jūsų paskyra; sąskaitas faktūras – 10 metų, kaip reikalauja Lietuvos buhalterinės apskaitos įstatymai. Žinutes – {{contactMonths}} mėn., kad galėtume į jas grįžti, analitikos skaičius – {{analyticsMonths}} mėn.; senesni įrašai ištrinami automatiškai.',
      },
      rights: {
        title: 'Jūsų teisės',
        body: 'Galite prašyti susipažinti su savo duomenimis, juos ištaisyti ar ištrinti, gauti juos perkeliama forma arba nesutikti, kad jie būtų naudojami. Taip pat galite pateikti skundą Valstybinei duomenų apsaugos inspekcijai (vdai.lrv.lt).',
      },
      processors: {
        title: 'Kas dar juos mato',
        body: 'Mokėjimų kortele tiekėjas tvarko jūsų mokėjimo duomenis; viso kortelės numerio mes niekada nematome ir nesaugome. Asmens duomenų neparduodame ir neperduodame reklamai.',
      },
    },
  },
  terms: {
    title: 'Paslaugų teikimo sąlygos',
    lead: 'Susitarimas tarp jūsų ir Debesis, kai užsisakote ir naudojate darbo erdvę.',
    sections: {
      service: {
        title: 'Paslauga',
        body: 'Debesis teikia talpinamą saugyklą ir tinklo prieigą (darbo erdvę), kurios dydis, naudotojų skaičius ir funkcijos atitinka pasirinktą planą. Darbo erdvė paruošiama po mokėjimo, paprastai per minutę.',
      },
      account: {
        title: 'Jūsų paskyra',
        body: 'Jūs atsakote už savo ir darbo erdvės naudotojų slaptažodžių saugumą bei už tai, kas daroma jūsų paskyra. Asmeninę paskyrą galima paversti verslo paskyra; to atšaukti negalima.',
      },
      payment: {
        title: 'Mokėjimas ir pratęsimas',
        body: 'Kainos rodomos prieš mokant ir, kai taikoma, apima PVM. Mokate iš anksto už pasirinktą atsiskaitymo laikotarpį; ilgesniems laikotarpiams taikoma nuolaida. Už plano padidinimą mokama už likusią einamojo laikotarpio dalį; sumažinus planą, kreditas už vėlesnį padidinimą nesuteikiamas.',
      },
      expiry: {
        title: 'Galiojimo pabaiga ir ištrynimas',
        body: 'Neapmokėta ar pasibaigusi paslauga sustabdoma, o vėliau perkeliama į karantiną. Karantino metu jūsų duomenys saugomi ir paslaugą galite pratęsti; po valdymo skydelyje nurodytos datos paslauga nutraukiama, o jos duomenys ištrinami.',
      },
      use: {
        title: 'Priimtinas naudojimas',
        body: 'Nenaudokite paslaugos neteisėtai veiklai, kenkėjiškoms programoms laikyti ar platinti, kitoms sistemoms atakuoti ar kitų teisėms pažeisti. Galime sustabdyti paslaugą, kuri kelia pavojų kitiems klientams ar mūsų tinklui, ir pranešime jums priežastį.',
      },
      availability: {
        title: 'Jūsų duomenys ir pasiekiamumas',
        body: 'Prižiūrime serverius ir tinklą, kuriuose veikia jūsų darbo erdvė. Neatsakome už duomenis, kuriuos patys ištrynėte ar perrašėte: duomenų, kurių negalite prarasti, kopiją laikykite ir patys.',
      },
      backups: {
        title: 'Atsarginės kopijos',
        body: 'Automatines kasdienes atsargines kopijas saugome 7 dienas. Neatsakome už jūsų pačių ištrintus duomenis, kai jų turėjusios atsarginės kopijos jau nebesaugomos; ilgiau saugotiniems duomenims sukurkite savo tvarkaraščius.',
      },
      law: {
        title: 'Teisė ir ginčai',
        body: 'Šioms sąlygoms taikoma Lietuvos Respublikos teisė. Pirmiausia stengiamės kiekvieną problemą išspręsti kartu, todėl prieš pradėdami ginčą susisiekite su mumis.',
      },
    },
  },
  solutions: {
    whatYouGet: 'Ką gaunate',
    goodFor: 'Tinka',
    ctaTitle: 'Pasiruošę pradėti?',
    ctaBody: 'Pasirinkite planą – darbo erdvė paprastai paruošiama per minutę.',
    secureAccess: {
      title: 'Saugi prieiga',
      lead: 'Pasiekite įmonės failus iš namų, biuro ar kelionės per savo šifruotą VPN.',
      features: {
        vpn: 'Nuosavas OpenVPN serveris su profiliu kiekvienam žmogui',
        revoke:
          'Pamesto nešiojamojo kompiuterio prieigą išjungsite vienu paspaudimu; jo seansai iškart baigiami',
        sessions: 'Matote, kas prisijungęs dabar ir kiek duomenų persiuntė',
        log: 'Kiekvienas prisijungimas ir pakeitimas įrašomas į veiklos žurnalą',
        ldap: 'Naudotojai ir grupės viename kataloge (LDAP) visoms paslaugoms',
      },
      useCases: {
        remote: 'Komandoms, dalį savaitės dirbančioms iš namų',
        field: 'Darbuotojams, kurie keliauja ir kelyje naudojasi failais',
        contractors: 'Prieigai rangovui suteikti tik kelioms savaitėms',
      },
    },
    teamDrive: {
      title: 'Komandos diskas',
      lead: 'Vienas bendras diskas visai komandai su jūsų nustatytomis teisėmis, veikiantis kaip vietinis aplankas.',
      features: {
        samba: 'Samba bendrinami aplankai, atsidarantys Windows failų naršyklėje ir macOS Finder',
        permissions: 'Skaitymo, rašymo ir administravimo teisės kiekvienam naudotojui ir grupei',
        nfsFtp: 'Tie patys failai per NFS serveriams ir per SFTP programoms',
        links: 'Bendrinimo nuorodos su galiojimo laiku, slaptažodžiu ir atsisiuntimų ribomis',
        portal: 'Portalas, kuriame kiekvienas naudotojas pats keičia savo slaptažodį',
        log: 'Kiekvienas naudotojų, grupių ir aplankų pakeitimas įrašomas į veiklos žurnalą',
      },
      useCases: {
        office: 'Biurams, keičiantiems seną failų serverį ar NAS',
        agencies: 'Dizaino ir inžinerijos komandoms su dideliais failais',
        accounting: 'Buhalterinės apskaitos įmonėms, atskirai laikančioms klientų aplankus',
      },
    },
    businessStorage: {
      title: 'Verslo saugykla',
      lead: 'Saugykla, auganti kartu su jūsų verslu: nuo 3 GB iki 2 TB standartiniuose planuose ir diskai iki 16 TB.',
      features: {
        sizes: 'Planai nuo Starter (3 GB) iki BIG ONE (2 TB), prireikus – papildoma vieta',
        backups: 'Automatinės kasdienės atsarginės kopijos, saugomos 7 dienas, ir jūsų tvarkaraščiai',
        dedicatedIp: 'Atskiras IP adresas nuo MINI plano',
        overview: 'Naudojimas ir paslaugos būsena vienu žvilgsniu valdymo skydelyje',
        invoices: 'Sąskaitos faktūros su jūsų įmonės ir PVM duomenimis už kiekvieną mokėjimą',
      },
      useCases: {
        archive: 'Projektų archyvams ir dokumentams laikyti daug metų',
        secondCopy: 'Antrai, saugiai jūsų serverių duomenų kopijai',
        growing: 'Įmonėms, kurių duomenų kiekis auga',
      },
    },
  },
};
