// shareLinks: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const shareLinksCatalogue = defineFeatureCatalogue({
  feature: 'shareLinks',
  errors: {
    share_link_not_found: {
      status: 404,
      en: 'This link does not exist. Check that it was copied whole.',
      lt: 'Tokios nuorodos nėra. Patikrinkite, ar ji nukopijuota visa.',
    },
    share_link_limit: {
      status: 409,
      en: 'The service already has as many share links as it can hold. Delete a link first.',
      lt: 'Paslaugoje jau tiek bendrinimo nuorodų, kiek ji gali turėti. Pirmiausia ištrinkite nuorodą.',
    },
    share_link_ip_refused: {
      status: 403,
      en: 'This link cannot be opened from your network.',
      lt: 'Šios nuorodos negalima atverti iš jūsų tinklo.',
    },
    share_link_revoked: {
      status: 410,
      en: 'This link was turned off by its owner.',
      lt: 'Šią nuorodą jos savininkas išjungė.',
    },
    share_link_expired: {
      status: 410,
      en: 'This link has expired.',
      lt: 'Šios nuorodos galiojimas baigėsi.',
    },
    share_link_over_limit: {
      status: 410,
      en: 'This link has been downloaded as many times as its owner allowed.',
      lt: 'Ši nuoroda jau atsisiųsta tiek kartų, kiek leido jos savininkas.',
    },
    share_link_password_required: {
      status: 401,
      en: 'This link is protected. Enter its password to open it.',
      lt: 'Ši nuoroda apsaugota. Įveskite jos slaptažodį.',
    },
    share_link_wrong_password: {
      status: 401,
      en: 'The password is not right.',
      lt: 'Slaptažodis neteisingas.',
    },
    share_link_unavailable: {
      status: 404,
      en: 'What this link shared is no longer there.',
      lt: 'To, kuo buvo dalijamasi šia nuoroda, nebėra.',
    },
    share_link_busy: {
      status: 503,
      en: 'Too many downloads are running right now. Please try again in a minute.',
      lt: 'Šiuo metu vyksta per daug atsisiuntimų. Bandykite dar kartą po minutės.',
    },
    share_link_folder_too_big: {
      status: 409,
      en: 'This folder holds too many files to download as one zip (more than 100,000). Download the folders inside it one by one.',
      lt: 'Šiame aplanke per daug failų, kad jį būtų galima atsisiųsti vienu zip (daugiau nei 100 000). Atsisiųskite jo aplankus po vieną.',
    },
  },
  fieldErrors: {
    share_target_unknown: {
      en: 'This is not in the service any more. Choose again',
      lt: 'Paslaugoje to nebėra. Pasirinkite iš naujo',
    },
    share_ip_rule_invalid: {
      en: 'Enter an IP address or network, such as 203.0.113.7, 192.168.1.0/24 or 2001:db8::/32',
      lt: 'Įveskite IP adresą ar tinklą, pavyzdžiui, 203.0.113.7, 192.168.1.0/24 ar 2001:db8::/32',
    },
    share_ip_rule_host_bits: {
      en: 'Use the network’s first address, such as 192.168.1.0/24',
      lt: 'Naudokite pirmąjį tinklo adresą, pavyzdžiui, 192.168.1.0/24',
    },
    share_ip_rules_too_many: {
      en: 'At most 100 addresses or networks',
      lt: 'Daugiausia 100 adresų ar tinklų',
    },
    share_download_limit_invalid: {
      en: 'Allow at least one download, or leave it empty for no limit',
      lt: 'Leiskite bent vieną atsisiuntimą arba palikite tuščią – be ribos',
    },
  },
  activity: {
    'Share link created': {
      key: 'shareLinkCreated',
      en: 'Share link created',
      lt: 'Sukurta bendrinimo nuoroda',
    },
    'Share link revoked': {
      key: 'shareLinkRevoked',
      en: 'Share link revoked',
      lt: 'Atšaukta bendrinimo nuoroda',
    },
    'Share link deleted': {
      key: 'shareLinkDeleted',
      en: 'Share link deleted',
      lt: 'Ištrinta bendrinimo nuoroda',
    },
  },
});
