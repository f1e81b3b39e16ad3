// The alert mail: one per alert raised (of MAILED_ALERT_KINDS), in the owner's language, saying
// what is wrong and what to do. A cleared alert sends no mail (the tab shows it cleared).
import { BANDWIDTH_THROTTLE_KBIT, type AlertKind, type Language } from '@debesis/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import { composeServiceMail, greeting, noteFor, type ServiceMailBase } from '../services/services.mail.ts';

type Params = Record<string, string | number>;
type Words = (params: Params) => { subject: string; body: string };

const TEXTS: Record<Language, Partial<Record<AlertKind, Words>>> = {
  en: {
    disk_warning: (p) => ({
      subject: `Disk ${p.percent}% full`,
      body: `The disk of this service is ${p.percent}% full. Delete files you no longer need or choose a larger disk in the service's settings before it fills up: a full disk refuses every new file.`,
    }),
    disk_critical: (p) => ({
      subject: `Disk ${p.percent}% full: almost no space left`,
      body: `The disk of this service is ${p.percent}% full. Once it is full, uploads and saves fail. Free space or choose a larger disk in the service's settings now.`,
    }),
    daemon_down: (p) => ({
      subject: `${p.daemon} is down`,
      body: `The ${p.daemon} server of this service is not running. The storage node keeps trying to start it; you can also restart the service from its overview.`,
    }),
    daemon_restarting: (p) => ({
      subject: `${p.daemon} keeps restarting`,
      body: `The ${p.daemon} server of this service started ${p.starts} times within a few minutes. Connections to it are being cut. If it goes on, write to support.`,
    }),
    node_unreachable: () => ({
      subject: 'Storage node unreachable',
      body: 'The storage node that runs this service has not been heard from for over two minutes. Your data is safe on it; we are on it, and you will see the alert cleared once it answers again.',
    }),
    vpn_over_limit: (p) => ({
      subject: `VPN user ${p.user} reached the traffic limit`,
      body: `The VPN user ${p.user} has used this month's traffic and is disconnected until the month ends or you raise the limit in the VPN tab.`,
    }),
    bandwidth_warning: (p) => ({
      subject: `${p.percent}% of this month's bandwidth used`,
      body: `This service has used ${p.percent}% of this month's bandwidth (twice its disk space, counted both ways). Once all of it is used, its network is slowed to ${BANDWIDTH_THROTTLE_KBIT / 1000} Mbit/s until the next month of the billing period; your files stay available. A larger plan brings more bandwidth.`,
    }),
    bandwidth_exhausted: () => ({
      subject: "This month's bandwidth used up: network slowed",
      body: `This service has used all of this month's bandwidth. Its network is slowed to ${BANDWIDTH_THROTTLE_KBIT / 1000} Mbit/s each way until the next month of the billing period starts; your files stay available. A larger plan brings more bandwidth at once.`,
    }),
  },
  lt: {
    disk_warning: (p) => ({
      subject: `Diskas užpildytas ${p.percent} %`,
      body: `Šios paslaugos diskas užpildytas ${p.percent} %. Ištrinkite nebereikalingus failus arba paslaugos nustatymuose pasirinkite didesnį diską, kol jis neprisipildė: pilnas diskas nepriima jokio naujo failo.`,
    }),
    disk_critical: (p) => ({
      subject: `Diskas užpildytas ${p.percent} %: vietos beveik neliko`,
      body: `Šios paslaugos diskas užpildytas ${p.percent} %. Kai jis prisipildys, įkėlimai ir įrašymai nepavyks. Atlaisvinkite vietos arba paslaugos nustatymuose pasirinkite didesnį diską dabar.`,
    }),
    daemon_down: (p) => ({
      subject: `${p.daemon} neveikia`,
      body: `Šios paslaugos ${p.daemon} serveris neveikia. Saugojimo mazgas vis bando jį paleisti; paslaugą galite paleisti iš naujo ir jos apžvalgoje.`,
    }),
    daemon_restarting: (p) => ({
      subject: `${p.daemon} vis paleidžiamas iš naujo`,
      body: `Šios paslaugos ${p.daemon} serveris per kelias minutes buvo paleistas ${p.starts} kartus. Prisijungimai prie jo nutrūksta. Jei tai tęsis, parašykite pagalbos tarnybai.`,
    }),
    node_unreachable: () => ({
      subject: 'Saugojimo mazgas nepasiekiamas',
      body: 'Saugojimo mazgas, kuriame veikia ši paslauga, neatsiliepia ilgiau nei dvi minutes. Jūsų duomenys jame saugūs; mes jau tvarkome, o kai mazgas vėl atsilieps, įspėjimas bus išvalytas.',
    }),
    vpn_over_limit: (p) => ({
      subject: `VPN naudotojas ${p.user} pasiekė srauto ribą`,
      body: `VPN naudotojas ${p.user} išnaudojo šio mėnesio srautą ir yra atjungtas, kol baigsis mėnuo arba kol VPN skiltyje padidinsite ribą.`,
    }),
    bandwidth_warning: (p) => ({
      subject: `Išnaudota ${p.percent} % šio mėnesio duomenų srauto`,
      body: `Ši paslauga išnaudojo ${p.percent} % šio mėnesio duomenų srauto (dvigubai daugiau nei disko vietos, skaičiuojant abiem kryptimis). Kai jis bus išnaudotas visas, tinklas bus sulėtintas iki ${BANDWIDTH_THROTTLE_KBIT / 1000} Mbit/s iki kito atsiskaitymo laikotarpio mėnesio; failai liks pasiekiami. Didesnis planas suteikia daugiau srauto.`,
    }),
    bandwidth_exhausted: () => ({
      subject: 'Šio mėnesio duomenų srautas išnaudotas: tinklas sulėtintas',
      body: `Ši paslauga išnaudojo visą šio mėnesio duomenų srautą. Jos tinklas sulėtintas iki ${BANDWIDTH_THROTTLE_KBIT / 1000} Mbit/s kiekviena kryptimi, kol prasidės kitas atsiskaitymo laikotarpio mėnuo; failai lieka pasiekiami. Didesnis planas iškart suteikia daugiau srauto.`,
    }),
  },
};

const BUTTON: Record<Language, string> = { en: 'Open monitoring', lt: 'Atverti stebėseną' };

/** The mail of a raised alert, or undefined for a kind that is not mailed. */
export function alertMail(
  mail: ServiceMailBase & { kind: AlertKind; params: Params },
): MailMessage | undefined {
  const words = TEXTS[mail.language][mail.kind];
  if (!words) return undefined;
  const { subject, body } = words(mail.params);
  return composeServiceMail(
    mail,
    `${mail.serviceName}: ${subject} – Debesis`,
    [greeting(mail), body],
    BUTTON[mail.language],
    noteFor(mail.language),
  );
}
