import { describe, expect, it } from 'vitest';
import { placeOfSupply } from './place-of-supply.ts';

const evidence = (
  billingCountry: string | null,
  ipCountry: string | null,
  accountCountry: string | null,
) => ({
  billingCountry,
  ipCountry,
  accountCountry,
});

describe('placeOfSupply', () => {
  it('takes the billing address when the IP country confirms it', () => {
    expect(placeOfSupply(evidence('DE', 'DE', 'LT'))).toEqual({
      country: 'DE',
      basis: 'confirmed',
      reliedOn: ['billing_address', 'ip_address'],
    });
  });

  it('without billing info, the registered country checked against the IP country', () => {
    expect(placeOfSupply(evidence(null, 'LT', 'LT'))).toEqual({
      country: 'LT',
      basis: 'confirmed',
      reliedOn: ['account_country', 'ip_address'],
    });
  });

  it('takes the higher VAT when the pieces contradict, so a claim can never lower it', () => {
    // Billing address outside the EU, ordering from Lithuania: Lithuanian VAT.
    expect(placeOfSupply(evidence('US', 'LT', 'LT'))).toEqual({
      country: 'LT',
      basis: 'contradicted',
      reliedOn: ['billing_address', 'ip_address'],
    });
    // A Lithuanian address ordering from abroad keeps Lithuanian VAT.
    expect(placeOfSupply(evidence('LT', 'US', 'LT'))?.country).toBe('LT');
    // Two member states: the higher rate (LU 17 % claimed, LT 21 % seen).
    expect(placeOfSupply(evidence('LU', 'LT', 'LU'))?.country).toBe('LT');
    // Two countries outside the EU: the claim stands.
    expect(placeOfSupply(evidence('US', 'CH', null))?.country).toBe('US');
  });

  it('with an unknown IP, the registered country is the second piece for a billing address', () => {
    expect(placeOfSupply(evidence('US', null, 'LT'))).toEqual({
      country: 'LT',
      basis: 'contradicted',
      reliedOn: ['billing_address', 'account_country'],
    });
    expect(placeOfSupply(evidence('DE', null, 'DE'))).toMatchObject({ country: 'DE', basis: 'confirmed' });
  });

  it('stands on one piece when there is nothing to compare it with', () => {
    expect(placeOfSupply(evidence(null, null, 'US'))).toEqual({
      country: 'US',
      basis: 'single',
      reliedOn: ['account_country'],
    });
    expect(placeOfSupply(evidence('FR', null, null))).toMatchObject({ country: 'FR', basis: 'single' });
    expect(placeOfSupply(evidence(null, 'DE', null))).toEqual({
      country: 'DE',
      basis: 'single',
      reliedOn: ['ip_address'],
    });
    expect(placeOfSupply(evidence(null, null, null))).toBeNull();
  });

  it('reads codes as the VAT table does (lower case, EL for Greece) and ignores what is not a code', () => {
    expect(placeOfSupply(evidence('el', 'GR', null))).toMatchObject({ country: 'GR', basis: 'confirmed' });
    expect(placeOfSupply(evidence('', 'XX1', 'lt'))).toMatchObject({ country: 'LT', basis: 'single' });
  });
});
