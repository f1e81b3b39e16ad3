// /api/v1/contact: the public contact form (POST) and support's address (GET). No session is
// needed; CSRF still applies, the page fetches its token like every other form.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  contactInfoResponseSchema,
  contactMessageRequestSchema,
  contactMessageResponseSchema,
} from '@debesis/contract';
import type { ContactService } from './contact.service.ts';

export const contactRoutes: FastifyPluginAsyncZod<{ contact: ContactService }> = async (app, { contact }) => {
  app.get(
    '/contact',
    {
      config: { access: 'public' },
      schema: {
        tags: ['public'],
        summary: 'Where to write to support directly, and how soon it answers',
        response: { 200: contactInfoResponseSchema },
      },
    },
    async () => contact.info(),
  );

  app.post(
    '/contact',
    {
      config: { access: 'public' },
      schema: {
        tags: ['public'],
        summary: 'Send a message to support (stored, then mailed); limited per IP and per email',
        body: contactMessageRequestSchema,
        response: { 201: contactMessageResponseSchema },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await contact.send(request.body, { ip: request.ip || null, language: request.language })),
  );
};
