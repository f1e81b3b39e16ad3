// /api/v1/billing/payment-methods: the account's kept card (one per account). GET shows it, POST
// answers where the provider's card form is (a new card replaces the kept one once the provider
// attaches it), DELETE removes it and detaches it at the provider. The owner's routes: a
// subuser's token is refused like on every billing route.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paymentMethodSetupResponseSchema, paymentMethodsResponseSchema } from '@debesis/contract';
import { ownerRouter } from '../../http/owner-route.ts';
import type { PaymentMethodsService } from './payment-methods.service.ts';

const tags = ['billing'];

export const paymentMethodsRoutes: FastifyPluginAsyncZod<{ methods: PaymentMethodsService }> = async (
  app,
  { methods },
) => {
  const owner = ownerRouter(app, tags);
  owner.get(
    '/',
    {
      summary: 'The kept card (brand, last four digits, expiry), or none',
      response: { 200: paymentMethodsResponseSchema },
    },
    async (_request, { accountId }) => methods.get(accountId),
  );

  owner.post(
    '/',
    {
      summary: 'Open the provider’s card form that keeps a new card without charging: its url',
      response: { 200: paymentMethodSetupResponseSchema },
    },
    async (_request, { accountId }) => methods.startSetup(accountId),
  );

  owner.delete(
    '/',
    {
      summary: 'Remove the kept card (detached at the provider); answered alike when there is none',
      response: { 200: paymentMethodsResponseSchema },
    },
    async (_request, { accountId, meta }) => methods.remove(accountId, meta),
  );
};
