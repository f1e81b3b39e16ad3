// /api/v1/orders: the signed-in owner's orders and paying for them.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createOrderRequestSchema,
  extendServiceRequestSchema,
  serviceIdParamsSchema,
  openOrderSchema,
  orderCapacityQuerySchema,
  orderCapacitySchema,
  orderIdParamsSchema,
  orderSchema,
  paymentSessionResponseSchema,
  paymentSessionStatusSchema,
  processOrderRequestSchema,
  text,
  type PaymentFlow,
  type PaymentSessionResponse,
  type PaymentSessionStatus,
} from '@debesis/contract';
import { currentUserId } from '../../http/caller.ts';
import type { OrdersService } from './orders.service.ts';

const security = [{ bearer: [] }];

/**
 * Paying an order: the payments module's sessions, which sit above orders (a payment fulfils an
 * order), so app.ts hands them in rather than this module importing them.
 */
export interface OrderPayments {
  createSession(
    accountId: string,
    orderId: string,
    flow: PaymentFlow,
    options?: { savePaymentMethod?: boolean },
  ): Promise<PaymentSessionResponse>;
  /** The order's newest session (another account's order is 404). */
  latestSession(accountId: string, orderId: string): Promise<{ id: string; url: string }>;
  status(sessionId: string): Promise<PaymentSessionStatus>;
}

export const ordersRoutes: FastifyPluginAsyncZod<{
  orders: OrdersService;
  payments: OrderPayments;
}> = async (app, { orders, payments }) => {
  app.get(
    '/',
    {
      config: { access: 'verified' },
      schema: { tags: ['orders'], security, response: { 200: z.array(orderSchema) } },
    },
    async (request) => orders.list(currentUserId(request)),
  );

  app.get(
    '/open',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'The account’s orders still to be paid or cancelled (AWAITING_PAYMENT, FAILED)',
        security,
        response: { 200: z.array(openOrderSchema) },
      },
    },
    async (request) => orders.listOpen(currentUserId(request)),
  );

  app.get(
    '/capacity',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'Whether a workspace of this disk size can be placed now, before paying for it',
        security,
        querystring: orderCapacityQuerySchema,
        response: { 200: orderCapacitySchema },
      },
    },
    async (request) => orders.capacity(request.query.disk_space),
  );

  app.post(
    '/',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'Order a plan; priced now with the account’s VAT situation',
        security,
        body: createOrderRequestSchema,
        response: { 201: orderSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await orders.create(currentUserId(request), request.body, { ip: request.ip })),
  );

  app.post(
    '/service/:id/extend',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'Order another billing period for a service',
        security,
        params: serviceIdParamsSchema,
        body: extendServiceRequestSchema,
        response: { 201: orderSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(
        await orders.extend(currentUserId(request), request.params.id, request.body.period_id, {
          ip: request.ip,
        }),
      ),
  );

  app.get(
    '/:id',
    {
      config: { access: 'verified' },
      schema: { tags: ['orders'], security, params: orderIdParamsSchema, response: { 200: orderSchema } },
    },
    async (request) => orders.get(currentUserId(request), request.params.id),
  );

  app.post(
    '/:id/cancel',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'Cancel an unpaid order: its set-aside credit is freed and its payment pages close',
        security,
        params: orderIdParamsSchema,
        response: { 200: orderSchema },
      },
    },
    async (request) => orders.cancel(currentUserId(request), request.params.id, { ip: request.ip }),
  );

  app.post(
    '/:id/process',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'Open a payment session for an order awaiting payment (naming its new service)',
        security,
        params: orderIdParamsSchema,
        body: processOrderRequestSchema,
        response: { 200: paymentSessionResponseSchema },
      },
    },
    async (request) => {
      const name = request.body?.name;
      if (name) await orders.nameService(currentUserId(request), request.params.id, name);
      return payments.createSession(currentUserId(request), request.params.id, 'new', {
        savePaymentMethod: request.body?.save_payment_method === true,
      });
    },
  );

  app.post(
    '/:id/retry-payment',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'Pay a failed order again with a new session',
        security,
        params: orderIdParamsSchema,
        response: { 200: paymentSessionResponseSchema },
      },
    },
    async (request) => payments.createSession(currentUserId(request), request.params.id, 'retry'),
  );

  app.get(
    '/:id/payment-intent',
    {
      config: { access: 'verified' },
      schema: {
        tags: ['orders'],
        summary: 'The latest payment session of an order',
        security,
        params: orderIdParamsSchema,
        response: { 200: paymentSessionStatusSchema.extend({ url: text() }) },
      },
    },
    async (request) => {
      const session = await payments.latestSession(currentUserId(request), request.params.id);
      return { ...(await payments.status(session.id)), url: session.url };
    },
  );
};
