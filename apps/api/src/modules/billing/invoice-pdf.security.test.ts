// The invoice PDF is a document served from the API's origin: like a customer's file shown in
// place, it gets the sandbox CSP and nosniff (it had neither, and a PDF may carry script and form
// actions that would run with the viewer's cookies).
import { describe, expect, it } from 'vitest';
import type { InvoiceList } from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { useTestContext } from '../../test/test-app.ts';
import { buy, seedProducts } from './billing.test-support.ts';

describe('the invoice PDF', () => {
  const ctx = useTestContext({}, seedProducts);

  it('attack: is served with Content-Security-Policy: sandbox and the other documents’ headers', async () => {
    const owner = await signedInUser(ctx);
    const order = await buy(ctx, owner.auth);
    const list = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/billing/invoices',
      headers: owner.auth,
    });
    const invoice = list.json<InvoiceList>().items.find((item) => item.order_id === order.id);
    expect(invoice).toBeDefined();
    const pdf = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/billing/invoices/${invoice!.id}/pdf`,
      headers: owner.auth,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none'/);
    expect(pdf.headers['x-content-type-options']).toBe('nosniff');
    expect(pdf.headers['content-disposition']).toMatch(
      /^attachment; filename="[^"]+\.pdf"; filename\*=UTF-8''/,
    );
    expect(pdf.headers['cache-control']).toBe('private, no-store');
  });
});
