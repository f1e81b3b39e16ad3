// /payments-sandbox: the sandbox provider's hosted card page. It stands where a real provider's
// page would (another site, in production), so it is plain server-rendered HTML with no app
// session, and its form is not CSRF-checked: the unguessable session id is its key. It speaks the
// language of the account paying (the browser's Accept-Language is the browser's, not the app's
// choice), and leads back to the page that opened it.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { paymentSessionParamsSchema, text, type Language } from '@debesis/contract';
import type { JobQueue } from '../../jobs/queue.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import type { PaymentsService } from './payments.service.ts';
import { outcomeForCard, type SandboxEvent } from './sandbox.provider.ts';
import { escapeHtml as escape } from '../../http/html.ts';

const TEXT = {
  en: {
    title: 'Sandbox payment',
    lead: 'This is the test payment page. No real money moves.',
    amount: 'Amount',
    card: 'Card number',
    expiry: 'Expiry (MM / YY)',
    month: 'MM',
    year: 'YY',
    yearLabel: 'Expiry year (YY)',
    cvc: 'CVC',
    pay: 'Pay',
    back: 'Cancel and go back',
    outcome: 'See how the payment went',
    cards:
      'Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds, 4000 0000 0000 0259 stays pending.',
    invalid:
      'Check the card details: use one of the test cards, a future expiry date and a 3 or 4 digit CVC.',
    closed: 'This payment session is already finished.',
  },
  lt: {
    title: 'Bandomasis mokėjimas',
    lead: 'Tai bandomasis mokėjimo puslapis. Tikri pinigai nenuskaičiuojami.',
    amount: 'Suma',
    card: 'Kortelės numeris',
    expiry: 'Galioja iki (mėnuo / metai)',
    month: 'MĖN',
    year: 'MM',
    yearLabel: 'Galiojimo metai (du skaitmenys)',
    cvc: 'CVC kodas',
    pay: 'Mokėti',
    back: 'Atšaukti ir grįžti',
    outcome: 'Peržiūrėti mokėjimo rezultatą',
    cards:
      'Bandomosios kortelės: 4242 4242 4242 4242 – sėkmė, 4000 0000 0000 0002 – atmesta, 4000 0000 0000 9995 – nepakanka lėšų, 4000 0000 0000 0259 – lieka laukianti.',
    invalid:
      'Patikrinkite kortelės duomenis: naudokite bandomąją kortelę, būsimą galiojimo datą ir 3 arba 4 skaitmenų CVC.',
    closed: 'Šis mokėjimas jau baigtas.',
  },
} satisfies Record<Language, Record<string, string>>;

function page(language: Language, body: string): string {
  const t = TEXT[language];
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${t.title}</title>
<style>body{font-family:system-ui,sans-serif;background:#f3f5f9;color:#0f172a;margin:0;padding:32px 16px}main{max-width:420px;margin:auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 4px 24px #0f172a1a}label{display:block;font-weight:600;margin:14px 0 6px}input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #94a3b8;border-radius:8px;font-size:16px}.row{display:flex;gap:12px}.row>div{flex:1}button{margin-top:20px;width:100%;padding:12px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;font-size:16px;font-weight:600;cursor:pointer}.note{font-size:13px;color:#475569}.error{background:#fee2e2;color:#991b1b;padding:10px;border-radius:8px}.amount{font-size:28px;font-weight:700}.back{display:block;margin-top:16px;text-align:center;color:#1d4ed8}</style></head>
<body><main>${body}</main></body></html>`;
}

const payFormSchema = z.object({
  card_number: text().max(30),
  exp_month: z.coerce.number().int().min(1).max(12),
  exp_year: z.coerce.number().int().min(0).max(9999),
  cvc: text().regex(/^\d{3,4}$/),
});

/** The page that opened the card page: its return address without `/complete?…`. */
function paymentPageOf(returnUrl: string): string {
  return returnUrl.replace(/\/complete(\?.*)?$/, '');
}

export const sandboxRoutes: FastifyPluginAsyncZod<{
  payments: PaymentsService;
  queue: JobQueue;
  users: Pick<UsersQueries, 'findById'>;
}> = async (app, { payments, queue, users }) => {
  async function render(reply: FastifyReply, fallback: Language, sessionId: string, error?: string) {
    const session = await payments.sessionForCardPage(sessionId);
    const language = (await users.findById(session.accountId))?.settings.language ?? fallback;
    const t = TEXT[language];
    if (session.status !== 'open') {
      return reply
        .type('text/html')
        .send(
          page(
            language,
            `<h1>${t.title}</h1><p>${t.closed}</p><a class="back" href="${escape(session.returnUrl)}" data-testid="sandbox-outcome">${t.outcome}</a>`,
          ),
        );
    }
    const amount = new Intl.NumberFormat(language === 'lt' ? 'lt-LT' : 'en-US', {
      style: 'currency',
      currency: session.currency,
    }).format(session.amountMinor / 100);
    return reply
      .status(error ? 422 : 200)
      .type('text/html')
      .send(
        page(
          language,
          `<h1>${t.title}</h1><p class="note">${t.lead}</p><p>${t.amount}</p><p class="amount" data-testid="sandbox-amount">${escape(amount)}</p>
${error ? `<p class="error" role="alert" data-testid="sandbox-error">${t.invalid}</p>` : ''}
<form method="post" action="/payments-sandbox/sessions/${escape(session.id)}/pay" data-testid="sandbox-form">
<label for="card_number">${t.card}</label><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required data-testid="sandbox-card">
<div class="row"><div><label for="exp_month">${t.expiry}</label><div class="row"><input id="exp_month" name="exp_month" inputmode="numeric" placeholder="${t.month}" required data-testid="sandbox-exp-month"><input aria-label="${t.yearLabel}" name="exp_year" inputmode="numeric" placeholder="${t.year}" required data-testid="sandbox-exp-year"></div></div>
<div><label for="cvc">${t.cvc}</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required data-testid="sandbox-cvc"></div></div>
<button type="submit" data-testid="sandbox-pay">${t.pay}</button></form><p class="note">${t.cards}</p>
<a class="back" href="${escape(paymentPageOf(session.returnUrl))}" data-testid="sandbox-back">${t.back}</a>`,
        ),
      );
  }

  const schema = { tags: ['payments-sandbox'], params: paymentSessionParamsSchema };

  app.get(
    '/sessions/:id',
    { config: { access: 'public' }, schema: { ...schema, summary: 'The sandbox provider’s card page' } },
    async (request, reply) => render(reply, request.language, request.params.id),
  );

  app.post(
    '/sessions/:id/pay',
    {
      config: { access: 'public', csrf: false },
      schema: { ...schema, summary: 'Pay with a sandbox test card (form post)' },
    },
    async (request, reply) => {
      const session = await payments.sessionForCardPage(request.params.id);
      if (session.status !== 'open') return render(reply, request.language, session.id);
      const form = payFormSchema.safeParse(request.body);
      const outcome = form.success ? outcomeForCard(form.data.card_number) : null;
      const now = new Date();
      const expiry = form.success ? (form.data.exp_year % 100) * 12 + form.data.exp_month : 0;
      const current = (now.getUTCFullYear() % 100) * 12 + now.getUTCMonth() + 1;
      if (!form.success || !outcome || expiry < current) {
        return render(reply, request.language, session.id, 'invalid');
      }
      if (outcome.kind === 'pending') {
        // The bank never answers: no event, and the completion page runs into its time-out.
        await payments.markPending(session.id);
      } else {
        const event: SandboxEvent = {
          id: `evt_${randomBytes(12).toString('hex')}`,
          type: outcome.kind === 'succeeded' ? 'payment.succeeded' : 'payment.failed',
          session_id: session.id,
          amount: session.amountMinor,
          currency: session.currency,
          ...(outcome.kind === 'failed' ? { error: { code: outcome.code, message: outcome.message } } : {}),
          created: Math.floor(now.getTime() / 1000),
        };
        await queue.send('payments.sandbox-event', { event }, { idempotencyKey: event.id });
      }
      return reply.redirect(session.returnUrl, 303);
    },
  );
};
