// /payments-sandbox: the sandbox provider's hosted card page. It stands where a real provider's
// page would (another site, in production), so it is plain server-rendered HTML with no app
// session, and its form is not CSRF-checked: the unguessable session id is its key. It speaks the
// language of the account paying (the browser's Accept-Language is the browser's, not the app's
// choice), and leads back to the page that opened it.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  paymentMethodSetupParamsSchema,
  paymentSessionParamsSchema,
  text,
  type Language,
} from '@debesis/contract';
import type { JobQueue } from '../../jobs/queue.ts';
import type { UsersQueries } from '../users/users.queries.ts';
import type { PaymentMethodsService } from './payment-methods.service.ts';
import type { PaymentsService } from './payments.service.ts';
import {
  keptCardBehaviour,
  outcomeForCard,
  sandboxMethodRef,
  type SandboxCardEvent,
  type SandboxEvent,
} from './sandbox.provider.ts';
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
      'Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 has insufficient funds, 4000 0000 0000 0259 stays pending. Kept for renewals: 4000 0000 0000 0341 declines every renewal, 4000 0027 6000 3184 needs authentication.',
    invalid:
      'Check the card details: use one of the test cards, a future expiry date and a 3 or 4 digit CVC.',
    closed: 'This payment session is already finished.',
    keep: 'Keep this card for renewals',
    keepNote: 'Renewals are then charged to it; you can replace or remove it on the billing page.',
    setupTitle: 'Sandbox card',
    setupLead: 'Save a test card for renewals. Nothing is charged now. No real money moves.',
    save: 'Save card',
    setupBack: 'Cancel and go back to billing',
    setupCards:
      'Test cards: 4242 4242 4242 4242 renews fine, 4000 0000 0000 0259 renews once its pending charge settles, 4000 0000 0000 0341 declines every renewal, 4000 0027 6000 3184 needs authentication, 4000 0000 0000 9995 has insufficient funds; 4000 0000 0000 0002 is declined.',
    setupDeclined: 'This card was declined. Use another card.',
    setupClosed: 'This card form is already finished.',
    setupDone: 'Back to billing',
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
      'Bandomosios kortelės: 4242 4242 4242 4242 – sėkmė, 4000 0000 0000 0002 – atmesta, 4000 0000 0000 9995 – nepakanka lėšų, 4000 0000 0000 0259 – lieka laukianti. Išsaugotos pratęsimams: 4000 0000 0000 0341 – kiekvienas pratęsimas atmetamas, 4000 0027 6000 3184 – reikia patvirtinimo.',
    invalid:
      'Patikrinkite kortelės duomenis: naudokite bandomąją kortelę, būsimą galiojimo datą ir 3 arba 4 skaitmenų CVC.',
    closed: 'Šis mokėjimas jau baigtas.',
    keep: 'Išsaugoti šią kortelę pratęsimams',
    keepNote: 'Pratęsimai bus apmokami ja; pakeisti ar pašalinti ją galėsite skiltyje „Atsiskaitymai“.',
    setupTitle: 'Bandomoji kortelė',
    setupLead:
      'Išsaugokite bandomąją kortelę pratęsimams. Dabar nieko nenuskaičiuojama. Tikri pinigai nenuskaičiuojami.',
    save: 'Išsaugoti kortelę',
    setupBack: 'Atšaukti ir grįžti į atsiskaitymus',
    setupCards:
      'Bandomosios kortelės: 4242 4242 4242 4242 – pratęsimai pavyksta, 4000 0000 0000 0259 – pratęsiama, kai laukiantis mokėjimas įvykdomas, 4000 0000 0000 0341 – kiekvienas pratęsimas atmetamas, 4000 0027 6000 3184 – reikia patvirtinimo, 4000 0000 0000 9995 – nepakanka lėšų; 4000 0000 0000 0002 – atmesta.',
    setupDeclined: 'Ši kortelė atmesta. Naudokite kitą kortelę.',
    setupClosed: 'Ši kortelės forma jau baigta.',
    setupDone: 'Grįžti į atsiskaitymus',
  },
} satisfies Record<Language, Record<string, string>>;

function page(language: Language, body: string, title: string = TEXT[language].title): string {
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;background:#f3f5f9;color:#0f172a;margin:0;padding:32px 16px}main{max-width:420px;margin:auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 4px 24px #0f172a1a}label{display:block;font-weight:600;margin:14px 0 6px}input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #94a3b8;border-radius:8px;font-size:16px}.row{display:flex;gap:12px}.row>div{flex:1}button{margin-top:20px;width:100%;padding:12px;border:0;border-radius:8px;background:#1d4ed8;color:#fff;font-size:16px;font-weight:600;cursor:pointer}.note{font-size:13px;color:#475569}.error{background:#fee2e2;color:#991b1b;padding:10px;border-radius:8px}.amount{font-size:28px;font-weight:700}.back{display:block;margin-top:16px;text-align:center;color:#1d4ed8}.keep{display:flex;gap:10px;align-items:flex-start;font-weight:600;margin-top:18px}.keep input{width:auto;margin-top:3px}</style></head>
<body><main>${body}</main></body></html>`;
}

const payFormSchema = z.object({
  card_number: text().max(30),
  exp_month: z.coerce.number().int().min(1).max(12),
  exp_year: z.coerce.number().int().min(0).max(9999),
  cvc: text().regex(/^\d{3,4}$/),
  /** The "Keep this card for renewals" box: sent only when ticked. */
  keep_card: z.literal('on').optional(),
});

/** The card fields, shared by the payment form and the card form (the same fields). */
function cardFields(t: (typeof TEXT)[Language]): string {
  return `<label for="card_number">${t.card}</label><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" required data-testid="sandbox-card">
<div class="row"><div><label for="exp_month">${t.expiry}</label><div class="row"><input id="exp_month" name="exp_month" inputmode="numeric" placeholder="${t.month}" required data-testid="sandbox-exp-month"><input aria-label="${t.yearLabel}" name="exp_year" inputmode="numeric" placeholder="${t.year}" required data-testid="sandbox-exp-year"></div></div>
<div><label for="cvc">${t.cvc}</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required data-testid="sandbox-cvc"></div></div>`;
}

/** The expiry a form gave, as a four-digit year, or null when it is in the past. */
function futureExpiry(form: { exp_month: number; exp_year: number }, now: Date) {
  const year = form.exp_year < 100 ? 2000 + form.exp_year : form.exp_year;
  const expiry = year * 12 + form.exp_month;
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
  return expiry < current ? null : { month: form.exp_month, year };
}

/** A card form is good for a day, like a Stripe Checkout Session. */
export const SETUP_TTL_MS = 24 * 60 * 60 * 1000;

/** Whether a card form still takes a card. */
const setupOpen = (setup: { status: string; createdAt: Date }, now: Date) =>
  setup.status === 'open' && now.getTime() - setup.createdAt.getTime() < SETUP_TTL_MS;

/** The page that opened the card page: its return address without `/complete?…`. */
function paymentPageOf(returnUrl: string): string {
  return returnUrl.replace(/\/complete(\?.*)?$/, '');
}

export const sandboxRoutes: FastifyPluginAsyncZod<{
  payments: PaymentsService;
  methods: Pick<PaymentMethodsService, 'customerFor' | 'setupForPage' | 'completeSetup'>;
  queue: JobQueue;
  users: Pick<UsersQueries, 'findById'>;
}> = async (app, { payments, methods, queue, users }) => {
  /** The sandbox attaches a test card to the account's customer: its signed event, queued. */
  async function attachCard(
    accountId: string,
    cardNumber: string,
    expiry: { month: number; year: number },
    now: Date,
  ): Promise<boolean> {
    const behaviour = keptCardBehaviour(cardNumber);
    if (!behaviour) return false;
    const digits = cardNumber.replace(/\D/g, '');
    const event: SandboxCardEvent = {
      id: `evt_${randomBytes(12).toString('hex')}`,
      type: 'method.attached',
      customer: await methods.customerFor(accountId),
      payment_method: {
        id: sandboxMethodRef(behaviour, randomBytes(9).toString('hex')),
        // Every test card is a Visa, as Stripe's are.
        brand: 'visa',
        last4: digits.slice(-4),
        exp_month: expiry.month,
        exp_year: expiry.year,
      },
      created: Math.floor(now.getTime() / 1000),
    };
    await queue.send('payments.sandbox-event', { event }, { idempotencyKey: event.id });
    return true;
  }

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
${cardFields(t)}
<label class="keep"><input type="checkbox" name="keep_card" value="on"${session.savePaymentMethod ? ' checked' : ''} data-testid="sandbox-keep-card"><span>${t.keep}</span></label><p class="note">${t.keepNote}</p>
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
      const expiry = form.success ? futureExpiry(form.data, now) : null;
      if (!form.success || !outcome || !expiry) {
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
        // A paid session whose customer kept the card: the card is attached, as Stripe does.
        if (outcome.kind === 'succeeded' && form.data.keep_card === 'on') {
          await attachCard(session.accountId, form.data.card_number, expiry, now);
        }
      }
      return reply.redirect(session.returnUrl, 303);
    },
  );

  // The card form of Billing (POST /api/v1/billing/payment-methods): the payment form's fields,
  // saving the card without charging it.
  async function renderSetup(
    reply: FastifyReply,
    fallback: Language,
    setupId: string,
    error?: 'invalid' | 'declined',
  ) {
    const setup = await methods.setupForPage(setupId);
    const language = (await users.findById(setup.accountId))?.settings.language ?? fallback;
    const t = TEXT[language];
    if (!setupOpen(setup, new Date())) {
      return reply
        .type('text/html')
        .send(
          page(
            language,
            `<h1>${t.setupTitle}</h1><p>${t.setupClosed}</p><a class="back" href="${escape(setup.returnUrl)}" data-testid="sandbox-outcome">${t.setupDone}</a>`,
            t.setupTitle,
          ),
        );
    }
    const message = error === 'declined' ? t.setupDeclined : t.invalid;
    return reply
      .status(error ? 422 : 200)
      .type('text/html')
      .send(
        page(
          language,
          `<h1>${t.setupTitle}</h1><p class="note">${t.setupLead}</p>
${error ? `<p class="error" role="alert" data-testid="sandbox-error">${message}</p>` : ''}
<form method="post" action="/payments-sandbox/setups/${escape(setup.id)}/save" data-testid="sandbox-setup-form">
${cardFields(t)}
<button type="submit" data-testid="sandbox-save">${t.save}</button></form><p class="note">${t.setupCards}</p>
<a class="back" href="${escape(setup.returnUrl.replace(/\?.*$/, ''))}" data-testid="sandbox-back">${t.setupBack}</a>`,
          t.setupTitle,
        ),
      );
  }

  const setupSchema = { tags: ['payments-sandbox'], params: paymentMethodSetupParamsSchema };

  app.get(
    '/setups/:id',
    {
      config: { access: 'public' },
      schema: { ...setupSchema, summary: 'The sandbox provider’s card form (keeps a card, charges nothing)' },
    },
    async (request, reply) => renderSetup(reply, request.language, request.params.id),
  );

  app.post(
    '/setups/:id/save',
    {
      config: { access: 'public', csrf: false },
      schema: { ...setupSchema, summary: 'Keep a sandbox test card (form post)' },
    },
    async (request, reply) => {
      const setup = await methods.setupForPage(request.params.id);
      const now = new Date();
      if (!setupOpen(setup, now)) return renderSetup(reply, request.language, setup.id);
      const form = payFormSchema.safeParse(request.body);
      const expiry = form.success ? futureExpiry(form.data, now) : null;
      if (!form.success || !expiry || !outcomeForCard(form.data.card_number)) {
        return renderSetup(reply, request.language, setup.id, 'invalid');
      }
      // A declined test card is refused here, as Stripe refuses to attach it.
      if (!keptCardBehaviour(form.data.card_number)) {
        return renderSetup(reply, request.language, setup.id, 'declined');
      }
      // Only the first filled form of a setup keeps its card (a second tab finds it finished).
      if (!(await methods.completeSetup(setup.id, 'completed'))) {
        return renderSetup(reply, request.language, setup.id);
      }
      await attachCard(setup.accountId, form.data.card_number, expiry, now);
      return reply.redirect(setup.returnUrl, 303);
    },
  );
};
