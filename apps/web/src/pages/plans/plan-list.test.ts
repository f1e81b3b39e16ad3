import { describe, expect, it } from 'vitest';
import { parsePlanList } from './plan-list.ts';
import { PRODUCTS } from './plans-fixtures.ts';

describe('parsePlanList', () => {
  it('takes the card facts of each plan and keeps the plan as sent for the configurator', () => {
    const [mini] = parsePlanList(JSON.parse(JSON.stringify(PRODUCTS)));
    expect(mini).toMatchObject({ id: PRODUCTS[0]?.id, name: PRODUCTS[0]?.name, price: PRODUCTS[0]?.price });
    expect(mini?.product).toEqual(PRODUCTS[0]);
  });

  it.each([
    ['not a list', { products: PRODUCTS }],
    ['a price that is not a whole number', [{ ...PRODUCTS[0], price: '9.99' }]],
    ['an unknown address kind', [{ ...PRODUCTS[0], address: 'ipv6' }]],
    ['a plan without a name', [{ ...PRODUCTS[0], name: undefined }]],
    ['null in the list', [null]],
  ])('refuses %s', (_what, body) => {
    expect(() => parsePlanList(body)).toThrow(TypeError);
  });
});
