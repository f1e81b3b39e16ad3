// Owns contact messages: stores what a visitor sent through the public contact form and mails it
// to support. Limited per IP address and per email address, so the form cannot be used to flood
// support's inbox.
import type {
  ContactInfoResponse,
  ContactMessageRequest,
  ContactMessageResponse,
  Language,
} from '@debesis/contract';
import { CONTACT_REPLY_WITHIN_HOURS } from '@debesis/contract';
import type { MailMessage } from '../../mail/mailer.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limits.service.ts';
import { contactMail } from './contact.mail.ts';
import type { ContactQueries } from './contact.queries.ts';

export function createContactService(deps: {
  queries: Pick<ContactQueries, 'insert'>;
  limiter: Pick<RateLimiter, 'assertAllowed' | 'record'>;
  sendMail: (message: MailMessage) => Promise<void>;
  supportEmail: string;
  now: () => Date;
}) {
  return {
    info(): ContactInfoResponse {
      return { support_email: deps.supportEmail, reply_within_hours: CONTACT_REPLY_WITHIN_HOURS };
    },
    async send(
      request: ContactMessageRequest,
      meta: { ip: string | null; language: Language },
    ): Promise<ContactMessageResponse> {
      const email = request.email.toLowerCase();
      const limits: Parameters<RateLimiter['record']>[0] = [
        [LIMITS.contactPerIp, meta.ip ?? 'unknown'],
        [LIMITS.contactPerEmail, email],
      ];
      await deps.limiter.assertAllowed(limits);
      await deps.limiter.record(limits);
      const row = await deps.queries.insert({
        name: request.name,
        email,
        subject: request.subject,
        message: request.message,
        language: meta.language,
        createdAt: deps.now(),
      });
      await deps.sendMail(contactMail(row, deps.supportEmail));
      return { id: row.id, status: 'received', reply_within_hours: CONTACT_REPLY_WITHIN_HOURS };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
