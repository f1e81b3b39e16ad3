// GET /api/v1/account/credit: the account's credit (not in the spec; billing shows it).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountCreditSchema } from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { CreditsService } from './credits.service.ts';

export const creditsRoutes: FastifyPluginAsyncZod<{ credits: CreditsService }> = async (app, { credits }) => {
  app.get(
    '/credit',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['account'],
        summary: 'Account credit: balance before VAT, what unpaid orders set aside, and its history',
        security: [{ bearer: [] }],
        response: { 200: accountCreditSchema },
      },
    },
    async (request) => credits.summary(currentUserId(request)),
  );
};
