// Telling the owner what the lifecycle did to their service: the activity entry (spec tones:
// created/restored success, quarantined warning, terminated error) and the mail. Called after
// the change has been committed, by whoever's conditional update moved the service, so each
// goes out once. A mail's id names the service, the kind and the period it is about, so a
// retried job does not send it twice either.
import type { ExpiryWarning } from '@debesis/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import type { ActivityAction, ActivityService } from '../activity/activity.service.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import { PLACEMENT_RETRY_MINUTES } from './lifecycle.constants.ts';
import { daysLeft, quarantineAt, terminatesAt } from './lifecycle.ts';
import {
  expiryWarningMail,
  resourcePendingMail,
  serviceExpiredMail,
  serviceQuarantinedMail,
  serviceReadyMail,
  serviceTerminatedMail,
  type ServiceMailBase,
} from './services.mail.ts';
import type { ServiceRow } from './services.queries.ts';

export function createServiceNotifier(deps: {
  users: Pick<UsersQueries, 'findById'>;
  activity: Pick<ActivityService, 'record'>;
  sendMail: (message: MailMessage) => Promise<void>;
  publicUrl: string;
  now: () => Date;
}) {
  /** Who gets the mail, in which language; null when the account is gone. */
  async function recipient(service: ServiceRow, kind: string, key: string, page?: string) {
    const owner = await deps.users.findById(service.accountId);
    if (!owner) return null;
    const base: ServiceMailBase = {
      id: `service-${kind}-${service.id}-${key}`,
      to: owner.email,
      firstName: owner.firstName,
      language: owner.settings.language,
      serviceName: service.name,
      link: `${deps.publicUrl}${page ?? `/dashboard/services/${service.id}`}`,
    };
    return { base, wantsReminders: owner.settings.notificationEmail };
  }

  const periodKey = (service: ServiceRow) => String(service.validUntil.getTime());

  async function record(
    service: ServiceRow,
    action: ActivityAction,
    tone: 'success' | 'info' | 'warning' | 'error',
    details: Record<string, unknown> = {},
  ) {
    await deps.activity.record({
      accountId: service.accountId,
      serviceId: service.id,
      action,
      tone,
      details,
    });
  }

  return {
    async placed(service: ServiceRow): Promise<void> {
      await record(service, 'service placed', 'info', { address: service.address });
    },

    async resourcePending(service: ServiceRow): Promise<void> {
      await record(service, 'service waiting for resources', 'info');
      const to = await recipient(service, 'resource-pending', 'first');
      if (to) await deps.sendMail(resourcePendingMail({ ...to.base, retryMinutes: PLACEMENT_RETRY_MINUTES }));
    },

    async ready(service: ServiceRow): Promise<void> {
      await record(service, 'service created', 'success', { address: service.address });
      const to = await recipient(service, 'ready', 'first');
      if (to && service.address) {
        await deps.sendMail(
          serviceReadyMail({ ...to.base, address: service.address, validUntil: service.validUntil }),
        );
      }
    },

    /** A reminder the owner asked for (service setting and account mail notifications). */
    async expiryWarning(service: ServiceRow, warning: ExpiryWarning): Promise<void> {
      if (!service.expiryReminders) return;
      const to = await recipient(service, warning.replace('_', '-'), periodKey(service));
      if (!to?.wantsReminders) return;
      await deps.sendMail(
        expiryWarningMail({
          ...to.base,
          warning,
          daysLeft: daysLeft(service, deps.now()) ?? 0,
          validUntil: service.validUntil,
        }),
      );
    },

    async expired(service: ServiceRow): Promise<void> {
      const deletion = terminatesAt(service);
      await record(service, 'service expired', 'warning', { valid_until: service.validUntil.toISOString() });
      const to = await recipient(service, 'expired', periodKey(service));
      if (to && deletion) {
        await deps.sendMail(
          serviceExpiredMail({
            ...to.base,
            quarantineAt: quarantineAt(service.validUntil),
            terminatesAt: deletion,
          }),
        );
      }
    },

    async quarantined(service: ServiceRow): Promise<void> {
      const deletion = terminatesAt(service);
      await record(service, 'service quarantined', 'warning', {
        terminates_at: deletion?.toISOString() ?? null,
      });
      const to = await recipient(service, 'quarantined', periodKey(service));
      if (to && deletion) await deps.sendMail(serviceQuarantinedMail({ ...to.base, terminatesAt: deletion }));
    },

    /** Ended by the sweep, or by the owner (`ip` set: the owner's own action). */
    async terminated(service: ServiceRow, by: { ip: string | null } | null = null): Promise<void> {
      await deps.activity.record({
        accountId: service.accountId,
        serviceId: service.id,
        action: 'service terminated',
        tone: 'error',
        ip: by?.ip ?? null,
        details: { by: by ? 'owner' : 'lifecycle' },
      });
      const to = await recipient(service, 'terminated', 'final', '/dashboard/plans');
      if (to) await deps.sendMail(serviceTerminatedMail(to.base));
    },

    async restored(service: ServiceRow, from: string): Promise<void> {
      await record(service, 'service restored', 'success', {
        from,
        valid_until: service.validUntil.toISOString(),
      });
    },
  };
}

export type ServiceNotifier = ReturnType<typeof createServiceNotifier>;
