// The public site's two calls (spec accounts-ordering-billing §1-3, §8): the contact form and the
// analytics events a visitor's browser sends after consenting to "all" cookies. The same schemas
// validate the contact form in the browser and the request on the server.
import { z } from 'zod';
import { text } from './strings.ts';
import { emailSchema, personNameSchema } from './accounts.ts';
import { LANGUAGES } from './constants.ts';

/** Spec §2: the promise made on the contact page. */
export const CONTACT_REPLY_WITHIN_HOURS = 24;

/**
 * How long contact messages and analytics events are kept (the privacy page says so, and the
 * hourly maintenance job deletes what is older). The spec is silent; a year answers follow-ups
 * to a message and compares a season with the last one, and nothing needs them longer.
 */
/** Share links' access logs hold visitors' addresses: kept as long as analytics, then deleted. */
export const RETENTION_MONTHS = {
  contactMessages: 12,
  analyticsEvents: 12,
  shareLinkAccessLogs: 12,
} as const;

export const CONTACT_LIMITS = {
  subjectMaxLength: 200,
  messageMinLength: 10,
  messageMaxLength: 5000,
} as const;

export const contactMessageRequestSchema = z.strictObject({
  name: personNameSchema,
  email: emailSchema,
  subject: text({ error: 'required' }).trim().min(1, 'required').max(CONTACT_LIMITS.subjectMaxLength),
  message: text()
    .trim()
    .min(1, 'required')
    .min(CONTACT_LIMITS.messageMinLength)
    .max(CONTACT_LIMITS.messageMaxLength),
});
export type ContactMessageRequest = z.infer<typeof contactMessageRequestSchema>;

export const contactMessageResponseSchema = z.object({
  id: text(),
  status: z.literal('received'),
  reply_within_hours: z.number().int(),
});
export type ContactMessageResponse = z.infer<typeof contactMessageResponseSchema>;

/** GET /api/v1/contact: where support can be written to directly (SUPPORT_EMAIL). */
export const contactInfoResponseSchema = z.object({
  support_email: text(),
  reply_within_hours: z.number().int(),
});
export type ContactInfoResponse = z.infer<typeof contactInfoResponseSchema>;

/**
 * What the site counts. Page views, and the few clicks that tell whether the site works: calls to
 * action, solution cards, the demo's tabs, a sent contact form.
 */
export const ANALYTICS_EVENT_NAMES = [
  'page_view',
  'cta_click',
  'solution_click',
  'demo_tab',
  'contact_sent',
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENT_NAMES)[number];

/**
 * One event. Deliberately poor in personal data: a path without its query or fragment (which may
 * hold tokens or an email address), a short label naming what was clicked, the page's language.
 * No user id, no IP address, no free text.
 */
export const analyticsEventRequestSchema = z.strictObject({
  name: z.enum(ANALYTICS_EVENT_NAMES),
  path: text()
    .min(1, 'required')
    .max(300)
    .regex(/^\/[^?#\s]*$/, 'invalid_format'),
  target: text()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9][a-z0-9_.:-]*$/, 'invalid_format')
    .optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type AnalyticsEventRequest = z.infer<typeof analyticsEventRequestSchema>;

export const analyticsEventResponseSchema = z.object({ status: z.literal('accepted') });
export type AnalyticsEventResponse = z.infer<typeof analyticsEventResponseSchema>;
