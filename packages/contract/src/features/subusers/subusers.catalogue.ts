// subusers: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const subusersCatalogue = defineFeatureCatalogue({
  feature: 'subusers',
  errors: {
    subuser_not_found: {
      status: 404,
      en: 'Subuser not found',
      lt: 'Papildomas naudotojas nerastas',
    },
    subuser_exists: {
      status: 409,
      en: 'A subuser with this username already exists in this service.',
      lt: 'Papildomas naudotojas tokiu vardu šioje paslaugoje jau yra.',
    },
    subuser_limit: {
      status: 409,
      en: 'This service has as many subusers as it may have (50). Delete one first.',
      lt: 'Ši paslauga jau turi tiek papildomų naudotojų, kiek gali (50). Pirmiau ištrinkite vieną.',
    },
    subuser_disabled: {
      status: 403,
      en: 'This subuser is disabled. Ask the service’s owner to enable it.',
      lt: 'Šis papildomas naudotojas išjungtas. Paprašykite paslaugos savininko jį įjungti.',
    },
    subuser_not_allowed: {
      status: 403,
      en: 'A subuser can work with the backups of its service only.',
      lt: 'Papildomas naudotojas gali dirbti tik su savo paslaugos atsarginėmis kopijomis.',
    },
    subuser_session_required: {
      status: 403,
      en: 'Sign in as a subuser to continue.',
      lt: 'Norėdami tęsti, prisijunkite kaip papildomas naudotojas.',
    },
    subuser_session_not_found: {
      status: 404,
      en: 'This session has already ended.',
      lt: 'Ši sesija jau baigta.',
    },
  },
  fieldErrors: {},
  activity: {
    'Subuser created': {
      key: 'subuserCreated',
      en: 'Subuser created',
      lt: 'Sukurtas papildomas naudotojas',
    },
    'Subuser password changed': {
      key: 'subuserPasswordChanged',
      en: 'Subuser password changed',
      lt: 'Pakeistas papildomo naudotojo slaptažodis',
    },
    'Subuser enabled': {
      key: 'subuserEnabled',
      en: 'Subuser enabled',
      lt: 'Įjungtas papildomas naudotojas',
    },
    'Subuser disabled': {
      key: 'subuserDisabled',
      en: 'Subuser disabled',
      lt: 'Išjungtas papildomas naudotojas',
    },
    'Subuser deleted': {
      key: 'subuserDeleted',
      en: 'Subuser deleted',
      lt: 'Ištrintas papildomas naudotojas',
    },
    'Subuser 2FA enabled': {
      key: 'subuserTwoFactorEnabled',
      en: 'Two-factor sign-in turned on for a subuser',
      lt: 'Papildomam naudotojui įjungtas dviejų veiksnių prisijungimas',
    },
    'Subuser 2FA disabled': {
      key: 'subuserTwoFactorDisabled',
      en: 'Two-factor sign-in turned off for a subuser',
      lt: 'Papildomam naudotojui išjungtas dviejų veiksnių prisijungimas',
    },
    'Subuser backup codes renewed': {
      key: 'subuserBackupCodesRenewed',
      en: 'New backup codes made for a subuser',
      lt: 'Papildomam naudotojui sukurti nauji atsarginiai kodai',
    },
    'Subuser sessions revoked': {
      key: 'subuserSessionsRevoked',
      en: 'Subuser sessions ended',
      lt: 'Baigtos papildomo naudotojo sesijos',
    },
    'Subuser logged in': {
      key: 'subuserLoggedIn',
      en: 'Subuser signed in',
      lt: 'Prisijungė papildomas naudotojas',
    },
  },
});
