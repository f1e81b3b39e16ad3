// /api/v1/billing (spec §7 Billing): the summary, billing info, and the signed-in owner's
// invoices with their PDF and HTML preview. Another account's invoice answers 404.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingInfoSchema,
  billingSummarySchema,
  invoiceDocumentQuerySchema,
  invoiceIdParamsSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoiceSchema,
  updateBillingInfoRequestSchema,
  text,
} from '@debesis/contract';
import { documentHeaders } from '../../http/attachment.ts';
import { admitSessionRead, currentUserId } from '../../http/caller.ts';
import { ownerRouter, ownerRoutes } from '../../http/owner-route.ts';
import { compiledContractSerializer } from '../../http/contract-serializer.ts';
import type { BillingService } from './billing.service.ts';

const security = [{ bearer: [] }];
const tags = ['billing'];
const route = ownerRoutes(tags);

export const billingRoutes: FastifyPluginAsyncZod<{ billing: BillingService }> = async (app, { billing }) => {
  const owner = ownerRouter(app, tags);
  owner.get(
    '/',
    {
      summary:
        'Billing summary: billing info and its completeness, outstanding orders, credit, invoice totals',
      response: { 200: billingSummarySchema },
    },
    async (_request, { accountId }) => billing.summary(accountId),
  );

  owner.put(
    '/info',
    {
      summary: 'Save billing info; refused unless complete (spec §3)',
      body: updateBillingInfoRequestSchema,
      response: { 200: billingInfoSchema },
    },
    async (request, { accountId, meta }) => billing.updateInfo(accountId, request.body, meta),
  );

  app.get(
    '/invoices',
    {
      // The billing page's list: its one statement checks the session too (access.ts).
      config: { access: 'verified', sessionReadByRoute: true },
      schema: {
        tags,
        summary: 'The account’s invoices, newest first, filtered and paged',
        security,
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListSchema },
      },
      serializerCompiler: compiledContractSerializer,
    },
    async (request) =>
      billing.listForSession(request.claims?.sessionId ?? '', request.query, (session) =>
        admitSessionRead(request, session),
      ),
  );

  owner.get(
    '/invoices/:id',
    { params: invoiceIdParamsSchema, response: { 200: invoiceSchema } },
    async (request, { accountId }) => billing.get(accountId, request.params.id),
  );

  app.get(
    '/invoices/:id/pdf',
    route({
      summary: 'The invoice as a PDF file (account language, or `lang`)',
      params: invoiceIdParamsSchema,
      querystring: invoiceDocumentQuerySchema,
      produces: ['application/pdf'],
      response: {
        200: z.custom<Buffer>().meta({ type: 'string', format: 'binary', description: 'application/pdf' }),
      },
    }),
    async (request, reply) => {
      const file = await billing.pdf(currentUserId(request), request.params.id, request.query.lang);
      return reply
        .type('application/pdf')
        .headers(documentHeaders(file.filename))
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );

  app.get(
    '/invoices/:id/preview',
    route({
      summary: 'The invoice as an HTML page (account language, or `lang`)',
      params: invoiceIdParamsSchema,
      querystring: invoiceDocumentQuerySchema,
      produces: ['text/html'],
      response: { 200: text().meta({ description: 'text/html' }) },
    }),
    async (request, reply) => {
      const html = await billing.preview(currentUserId(request), request.params.id, request.query.lang);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').send(html);
    },
  );
};
