import { describe, expect, it } from 'vitest';
import { ipAllowed } from './ip-rules.ts';

describe('a link’s IP rules', () => {
  it('admits anyone without rules, and refuses what the deny list names whatever the allow list says', () => {
    expect(ipAllowed('198.51.100.1', [], [])).toBe(true);
    expect(ipAllowed('10.1.2.3', ['10.0.0.0/8'], ['10.1.2.3'])).toBe(false);
    expect(ipAllowed('10.1.2.4', ['10.0.0.0/8'], ['10.1.2.3'])).toBe(true);
  });

  it('admits only what a non-empty allow list names, in either family', () => {
    expect(ipAllowed('11.0.0.1', ['10.0.0.0/8'], [])).toBe(false);
    expect(ipAllowed('2001:db8::5', ['2001:db8::/32'], [])).toBe(true);
    expect(ipAllowed('2001:db9::5', ['2001:db8::/32'], [])).toBe(false);
  });

  it('judges an IPv4 visitor seen through IPv6 as IPv4, and IPv4-mapped rules as their IPv4', () => {
    expect(ipAllowed('::ffff:10.1.2.3', ['10.0.0.0/8'], [])).toBe(true);
    expect(ipAllowed('10.1.2.3', ['::ffff:10.1.2.3'], [])).toBe(true);
    expect(ipAllowed('10.1.2.3', ['::ffff:10.0.0.0/104'], [])).toBe(true);
    expect(ipAllowed('11.1.2.3', ['::ffff:10.0.0.0/104'], [])).toBe(false);
  });

  it('refuses an address it cannot judge whenever there are rules', () => {
    expect(ipAllowed('not an address', ['10.0.0.0/8'], [])).toBe(false);
    expect(ipAllowed('not an address', [], [])).toBe(true);
  });
});
