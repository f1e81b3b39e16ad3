// Which text names each action code the API records. Codes are sentences ("user logged in"),
// some with a colon, so they cannot be i18n keys themselves; each maps to a key of the
// `activity.actions` texts, and the type makes sure every code of the contract has one.
import type { ActivityAction } from '@debesis/contract';
import type { ActivityMessages } from '../../i18n/activity.en.ts';

export type ActionKey = keyof ActivityMessages['actions'];

export const ACTION_KEYS: Record<ActivityAction, ActionKey> = {
  'user logged in': 'userLoggedIn',
  'account created': 'accountCreated',
  'email verified': 'emailVerified',
  'password changed': 'passwordChanged',
  'settings updated': 'settingsUpdated',
  'account converted to business': 'accountConvertedToBusiness',
  'OAuth identity linked': 'oauthIdentityLinked',
  'session revoked: a used refresh token was presented again': 'sessionRevoked',
  'session signed out': 'sessionSignedOut',
  'email change requested': 'emailChangeRequested',
  'email changed': 'emailChanged',
  'billing info updated': 'billingInfoUpdated',
  'order created': 'orderCreated',
  'order cancelled': 'orderCancelled',
  'payment completed': 'paymentCompleted',
  'payment credited': 'paymentCredited',
  'payment refunded': 'paymentRefunded',
  'payment refused': 'paymentRefused',
  'plan change ordered': 'planChangeOrdered',
  'plan changed': 'planChanged',
  'plan change credit granted': 'planChangeCreditGranted',
  'plan change reverted': 'planChangeReverted',
  'service placed': 'servicePlaced',
  'service waiting for resources': 'serviceWaitingForResources',
  'service created': 'serviceCreated',
  'service started': 'serviceStarted',
  'service stopped': 'serviceStopped',
  'service restarted': 'serviceRestarted',
  'service cancelled': 'serviceCancelled',
  'service expired': 'serviceExpired',
  'service quarantined': 'serviceQuarantined',
  'service terminated': 'serviceTerminated',
  'service restored': 'serviceRestored',
  'user created': 'userCreated',
  'user updated': 'userUpdated',
  'user password changed': 'userPasswordChanged',
  'user deleted': 'userDeleted',
  'user activated': 'userActivated',
  'user deactivated': 'userDeactivated',
  'group created': 'groupCreated',
  'group updated': 'groupUpdated',
  'group deleted': 'groupDeleted',
  'group member added': 'groupMemberAdded',
  'group member removed': 'groupMemberRemoved',
  'group primary member unset': 'groupPrimaryMemberUnset',
  'users and groups synced': 'usersAndGroupsSynced',
  'Samba share created': 'sambaShareCreated',
  'Samba share updated': 'sambaShareUpdated',
  'Samba share deleted': 'sambaShareDeleted',
  'Samba share user added': 'sambaShareUserAdded',
  'Samba share user removed': 'sambaShareUserRemoved',
  'Samba share permissions updated': 'sambaSharePermissionsUpdated',
  'Samba reloaded': 'sambaReloaded',
  'Samba settings updated': 'sambaSettingsUpdated',
};

/** The key of an action's text; null for an action this version of the app does not know. */
export function actionKey(action: string): ActionKey | null {
  return Object.hasOwn(ACTION_KEYS, action) ? ACTION_KEYS[action as ActivityAction] : null;
}
