// vpn: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const vpnCatalogue = defineFeatureCatalogue({
  feature: 'vpn',
  errors: {
    vpn_user_not_found: {
      status: 404,
      en: 'There is no VPN user with this id in the service.',
      lt: 'Paslaugoje nėra VPN naudotojo su šiuo identifikatoriumi.',
    },
    vpn_user_exists: {
      status: 409,
      en: 'The service already has a VPN user with this name.',
      lt: 'Paslaugoje jau yra VPN naudotojas tokiu vardu.',
    },
    vpn_user_limit: {
      status: 409,
      en: 'The service already has as many VPN users as its plan has users. Delete a VPN user, or choose a plan with more users.',
      lt: 'Paslaugoje jau tiek VPN naudotojų, kiek jos planas turi naudotojų. Ištrinkite VPN naudotoją arba pasirinkite planą su daugiau naudotojų.',
    },
    vpn_not_placed: {
      status: 409,
      en: 'The VPN is not running yet: the service is still being set up on a storage node. Please try again in a few minutes.',
      lt: 'VPN dar neveikia: paslauga dar diegiama saugojimo mazge. Bandykite dar kartą po kelių minučių.',
    },
    vpn_user_not_applied: {
      status: 409,
      en: 'The storage node does not have this VPN user yet. Please wait until the change is applied and try again.',
      lt: 'Saugojimo mazgas dar neturi šio VPN naudotojo. Palaukite, kol pakeitimas bus pritaikytas, ir bandykite dar kartą.',
    },
    vpn_node_failed: {
      status: 502,
      en: 'The storage node could not do this. Please try again later or contact support.',
      lt: 'Saugojimo mazgui to padaryti nepavyko. Bandykite vėliau arba susisiekite su pagalbos tarnyba.',
    },
  },
  fieldErrors: {
    vpn_traffic_limit_negative: {
      en: 'The traffic limit cannot be negative (0 means unlimited)',
      lt: 'Srauto limitas negali būti neigiamas (0 reiškia neribotą)',
    },
  },
  activity: {
    'VPN user created': {
      key: 'vpnUserCreated',
      en: 'VPN user created',
      lt: 'VPN naudotojas sukurtas',
    },
    'VPN user updated': {
      key: 'vpnUserUpdated',
      en: 'VPN user updated',
      lt: 'VPN naudotojas atnaujintas',
    },
    'VPN user enabled': {
      key: 'vpnUserEnabled',
      en: 'VPN user enabled',
      lt: 'VPN naudotojas įjungtas',
    },
    'VPN user disabled': {
      key: 'vpnUserDisabled',
      en: 'VPN user disabled',
      lt: 'VPN naudotojas išjungtas',
    },
    'VPN user password changed': {
      key: 'vpnUserPasswordChanged',
      en: 'VPN user password changed',
      lt: 'VPN naudotojo slaptažodis pakeistas',
    },
    'VPN user revoked': {
      key: 'vpnUserRevoked',
      en: 'VPN certificate revoked',
      lt: 'VPN sertifikatas atšauktas',
    },
    'VPN user deleted': {
      key: 'vpnUserDeleted',
      en: 'VPN user deleted',
      lt: 'VPN naudotojas ištrintas',
    },
    'VPN server restarted': {
      key: 'vpnServerRestarted',
      en: 'VPN server restarted',
      lt: 'VPN serveris paleistas iš naujo',
    },
    'VPN reloaded': {
      key: 'vpnReloaded',
      en: 'VPN configuration sent to the node again',
      lt: 'VPN konfigūracija iš naujo išsiųsta mazgui',
    },
  },
});
