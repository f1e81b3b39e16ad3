// Which text names each action code the API records. Codes are sentences ("user logged in"),
// some with a colon, so they cannot be i18n keys themselves; each maps to a key of the
// `activity.actions` texts, and the type makes sure every code of the contract has one (a
// workspace feature's come with its catalogue in the contract).
import { FEATURE_ACTION_KEYS, type ActivityAction } from '@debesis/contract';
import type { ActivityMessages } from '../../i18n/activity.en.ts';

export type ActionKey = keyof ActivityMessages['actions'];

export const ACTION_KEYS: Record<ActivityAction, ActionKey> = {
  'user logged in': 'userLoggedIn',
  'account created': 'accountCreated',
  'email verified': 'emailVerified',
  'password changed': 'passwordChanged',
  'settings updated': 'settingsUpdated',
  'account converted to business': 'accountConvertedToBusiness',
  'company details corrected': 'companyDetailsCorrected',
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
  'payment method saved': 'paymentMethodSaved',
  'payment method removed': 'paymentMethodRemoved',
  'renewal failed': 'renewalFailed',
  'plan change ordered': 'planChangeOrdered',
  'plan change waiting for room': 'planChangeWaitingForRoom',
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
  'service suspended': 'serviceSuspended',
  'service reactivated': 'serviceReactivated',
  'service failed over': 'serviceFailedOver',
  'service moved': 'serviceMoved',
  ...FEATURE_ACTION_KEYS,
};

/** The key of an action's text; null for an action this version of the app does not know. */
export function actionKey(action: string): ActionKey | null {
  return Object.hasOwn(ACTION_KEYS, action) ? ACTION_KEYS[action as ActivityAction] : null;
}
