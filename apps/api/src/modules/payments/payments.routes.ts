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
}> = async (app, { payments }) => {
  app.post(
    '/session',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['payments'],
        summary: 'Open a hosted payment page for an order',
        security: [{ bearer: [] }],
        body: paymentSessionRequestSchema,
        response: { 200: paymentSessionResponseSchema },
      },
    },
    async (request) =>
      payments.createSession(currentUserId(request), request.body.order_id, 'new', {
        savePaymentMethod: request.body.save_payment_method,
      }),
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
