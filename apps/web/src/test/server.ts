// The fake API for unit tests. Unknown requests fail the test (see setup.ts), so a test can
// never pass by accident against a call nobody described. The only defaults are the two public
// reads every auth page makes, answered with "nothing to offer" (no OAuth providers, no country),
// and the services list every sign-in lands on, answered with none (and its account summary);
// the billing page's open orders and kept card, none.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { dashboardHandler } from './activity-fixtures.ts';
import { publicAuthHandlers } from './fixtures.ts';

export const server = setupServer(
  ...publicAuthHandlers,
  http.get('/api/v1/services/overview', () => HttpResponse.json({ services: [] })),
  // The services and billing pages list unpaid orders: none unless a test says otherwise.
  http.get('/api/v1/orders/open', () => HttpResponse.json([])),
  // The billing page shows the kept card: none unless a test says otherwise.
  http.get('/api/v1/billing/payment-methods', () => HttpResponse.json({ payment_method: null })),
  dashboardHandler(),
);
