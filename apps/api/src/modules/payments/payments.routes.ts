// /api/v1/payments: open a session, check it, and the providers' webhooks.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paymentSessionParamsSchema,
  paymentSessionRequestSchema,
  paymentSessionResponseSchema,
  paymentSessionStatusSchema,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { PaymentsService } from './payments.service.ts';

export const paymentsRoutes: FastifyPluginAsyncZod<{
  payments: PaymentsService;
  /** An owner's unpaid invoice and its order (billing module): paying by the invoice's link. */
  unpaidInvoice: (accountId: string, invoiceId: string) => Promise<{ orderId: string }>;
}> = async (app, { payments, unpaidInvoice }) => {
  app.post(
    '/session',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['payments'],
        summary: 'Open a hosted payment page for an order, or for an unpaid invoice (its order)',
        security: [{ bearer: [] }],
        body: paymentSessionRequestSchema,
        response: { 200: paymentSessionResponseSchema },
      },
    },
    async (request) => {
      const accountId = currentUserId(request);
      const { order_id: orderId, invoice_id: invoiceId } = request.body;
      // The schema admits exactly one of the two.
      const payable = invoiceId ? (await unpaidInvoice(accountId, invoiceId)).orderId : (orderId ?? '');
      // An invoice's order a page failed to pay before is reopened, as a retry is.
      return payments.createSession(accountId, payable, invoiceId ? 'retry' : 'new', {
        savePaymentMethod: request.body.save_payment_method,
      });
    },
  );

  for (const check of ['verify', 'status'] as const) {
    app.get(
      `/session/:id/${check}`,
      {
        config: { access: 'public' },
        schema: {
          tags: ['payments'],
          summary: 'State of a payment session and its order (no sign-in: the session id is the key)',
          params: paymentSessionParamsSchema,
          response: { 200: paymentSessionStatusSchema },
        },
      },
      async (request) => payments.status(request.params.id),
    );
  }

  // The webhook reads the body as text: the signature covers the exact bytes sent.
  await app.register(async (webhook) => {
    webhook.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    webhook.post(
      '/events/:provider',
      {
        config: { access: 'public', csrf: false },
        schema: {
          tags: ['payments'],
          summary: 'Signed event from the payment provider',
          params: z.object({ provider: z.enum(['sandbox', 'stripe']) }),
          response: {
            200: z.object({
              received: z.literal(true),
              result: z.enum(['applied', 'duplicate', 'refused', 'ignored']),
            }),
          },
        },
      },
      async (request) =>
        payments.receiveEvent(typeof request.body === 'string' ? request.body : '', request.headers),
    );
  });
};
