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
import { compiledContractSerializer } from '../../http/contract-serializer.ts';
import type { BillingService } from './billing.service.ts';

const security = [{ bearer: [] }];
const tags = ['billing'];

export const billingRoutes: FastifyPluginAsyncZod<{ billing: BillingService }> = async (app, { billing }) => {
  app.get(
    '/',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary:
          'Billing summary: billing info and its completeness, outstanding orders, credit, invoice totals',
        security,
        response: { 200: billingSummarySchema },
      },
    },
    async (request) => billing.summary(currentUserId(request)),
  );

  app.put(
    '/info',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'Save billing info; refused unless complete (spec §3)',
        security,
        body: updateBillingInfoRequestSchema,
        response: { 200: billingInfoSchema },
      },
    },
    async (request) => billing.updateInfo(currentUserId(request), request.body, { ip: request.ip }),
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

  app.get(
    '/invoices/:id',
    {
      config: { access: 'verified' },
      schema: { tags, security, params: invoiceIdParamsSchema, response: { 200: invoiceSchema } },
    },
    async (request) => billing.get(currentUserId(request), request.params.id),
  );

  app.get(
    '/invoices/:id/pdf',
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The invoice as a PDF file (account language, or `lang`)',
        security,
        params: invoiceIdParamsSchema,
        querystring: invoiceDocumentQuerySchema,
        produces: ['application/pdf'],
        response: {
          200: z.custom<Buffer>().meta({ type: 'string', format: 'binary', description: 'application/pdf' }),
        },
      },
    },
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
    {
      config: { access: 'verified' },
      schema: {
        tags,
        summary: 'The invoice as an HTML page (account language, or `lang`)',
        security,
        params: invoiceIdParamsSchema,
        querystring: invoiceDocumentQuerySchema,
        produces: ['text/html'],
        response: { 200: text().meta({ description: 'text/html' }) },
      },
    },
    async (request, reply) => {
      const html = await billing.preview(currentUserId(request), request.params.id, request.query.lang);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store').send(html);
    },
  );
};
