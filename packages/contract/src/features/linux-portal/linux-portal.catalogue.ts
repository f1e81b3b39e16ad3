// linuxPortal: the errors its routes answer with, the field codes its schemas name and the activity
// actions it records, each in English and Lithuanian (feature-catalogue.ts says how they are used).
import { defineFeatureCatalogue } from '../../feature-catalogue.ts';

export const linuxPortalCatalogue = defineFeatureCatalogue({
  feature: 'linuxPortal',
  errors: {
    linux_user_not_allowed: {
      status: 403,
      en: 'This is for the workspace’s owner. Workspace users sign in at the Linux-user portal.',
      lt: 'Tai skirta darbo vietos savininkui. Darbo vietos naudotojai jungiasi Linux naudotojų portale.',
    },
    linux_user_token_required: {
      status: 403,
      en: 'Sign in to the Linux-user portal with your workspace user name to continue.',
      lt: 'Norėdami tęsti, prisijunkite prie Linux naudotojų portalo savo darbo vietos naudotojo vardu.',
    },
    linux_user_inactive: {
      status: 403,
      en: 'This user is deactivated. Ask the workspace’s owner to activate it.',
      lt: 'Šis naudotojas išjungtas. Paprašykite darbo vietos savininko jį įjungti.',
    },
    linux_user_no_vpn: {
      status: 404,
      en: 'There is no VPN access for this user. Ask the workspace’s owner for a VPN user of the same name.',
      lt: 'Šis naudotojas neturi VPN prieigos. Paprašykite darbo vietos savininko sukurti to paties vardo VPN naudotoją.',
    },
  },
  fieldErrors: {
    linux_user_workspace_invalid: {
      en: 'Enter the service ID of your workspace, as the owner gave it',
      lt: 'Įveskite savo darbo vietos paslaugos ID, kurį davė savininkas',
    },
  },
  activity: {
    'Linux user logged in': {
      key: 'linuxUserLoggedIn',
      en: 'Workspace user signed in to the portal',
      lt: 'Darbo vietos naudotojas prisijungė prie portalo',
    },
    'Linux user password changed': {
      key: 'linuxUserPasswordChanged',
      en: 'Workspace user changed their password',
      lt: 'Darbo vietos naudotojas pakeitė slaptažodį',
    },
  },
});
