// /api/v1/billing/payment-methods: the account's kept card (one per account). GET shows it, POST
// answers where the provider's card form is (a new card replaces the kept one once the provider
// attaches it), DELETE removes it and detaches it at the provider. The owner's routes: a
// subuser's token is refused like on every billing route.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paymentMethodSetupResponseSchema, paymentMethodsResponseSchema } from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { PaymentMethodsService } from './payment-methods.service.ts';

const security = [{ bearer: [] }];
const tags = ['billing'];

export const paymentMethodsRoutes: FastifyPluginAsyncZod<{ methods: PaymentMethodsService }> = async (
  app,
  { methods },
) => {
  app.get(
    '/',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The kept card (brand, last four digits, expiry), or none',
        security,
        response: { 200: paymentMethodsResponseSchema },
      },
    },
    async (request) => methods.get(currentUserId(request)),
  );

  app.post(
    '/',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Open the provider’s card form that keeps a new card without charging: its url',
        security,
        response: { 200: paymentMethodSetupResponseSchema },
      },
    },
    async (request) => methods.startSetup(currentUserId(request)),
  );

  app.delete(
    '/',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Remove the kept card (detached at the provider); answered alike when there is none',
        security,
        response: { 200: paymentMethodsResponseSchema },
      },
    },
    async (request) => methods.remove(currentUserId(request), { ip: request.ip }),
  );
};
