import { describe, expect, it } from 'vitest';
import { EU_COUNTRIES, VAT_RATES, isEuCountry, normaliseCountry, vatFor } from './vat.ts';

// Written out a second time on purpose: changing a rate in the table must also change this list.
const EXPECTED_STANDARD_RATES: Record<string, number> = {
  AT: 20,
  BE: 21,
  BG: 20,
  CY: 19,
  CZ: 21,
  DE: 19,
  DK: 25,
  EE: 24,
  ES: 21,
  FI: 25.5,
  FR: 20,
  GR: 24,
  HR: 25,
  HU: 27,
  IE: 23,
  IT: 22,
  LT: 21,
  LU: 17,
  LV: 21,
  MT: 18,
  NL: 21,
  PL: 23,
  PT: 23,
  RO: 21,
  SE: 25,
  SI: 22,
  SK: 23,
};

describe('VAT_RATES', () => {
  it('lists the 27 member states once, with their source and date', () => {
    expect(EU_COUNTRIES).toHaveLength(27);
    expect(new Set(EU_COUNTRIES).size).toBe(27);
    expect(Object.keys(VAT_RATES.rates).sort()).toEqual([...EU_COUNTRIES].sort());
    expect(VAT_RATES.correctFor).toBe('2026-11-21');
    expect(VAT_RATES.source).toMatch(/European Commission/);
    expect(VAT_RATES.source).toMatch(/TEDB/);
  });

  it('has the standard rate of every state', () => {
    for (const country of EU_COUNTRIES) {
      expect(VAT_RATES.rates[country].standard, country).toBe(EXPECTED_STANDARD_RATES[country]);
    }
  });

  it('uses GR for Greece and leaves out EL, XI and the UK', () => {
    expect(isEuCountry('GR')).toBe(true);
    expect(isEuCountry('EL')).toBe(false);
    expect(isEuCountry('XI')).toBe(false);
    expect(isEuCountry('GB')).toBe(false);
  });
});

describe('vatFor: a Lithuanian seller of electronically supplied services', () => {
  it.each(EU_COUNTRIES.filter((country) => country !== 'LT'))(
    '%s consumer pays its own standard rate',
    (country) => {
      expect(vatFor({ country, isBusiness: false, vatNumberValid: false })).toEqual({
        rate: EXPECTED_STANDARD_RATES[country],
        reverse_charge: false,
        outside_scope: false,
        reason: 'eu_consumer',
        country,
        legal_note_key: null,
      });
    },
  );

  it.each(EU_COUNTRIES.filter((country) => country !== 'LT'))(
    '%s business with a valid VAT number: 0 %%, reverse charge',
    (country) => {
      expect(vatFor({ country, isBusiness: true, vatNumberValid: true })).toEqual({
        rate: 0,
        reverse_charge: true,
        outside_scope: false,
        reason: 'eu_business_reverse_charge',
        country,
        legal_note_key: 'reverse_charge',
      });
    },
  );

  it('EU business without a valid VAT number pays its own rate like a consumer', () => {
    const decision = vatFor({ country: 'DE', isBusiness: true, vatNumberValid: false });
    expect(decision).toMatchObject({ rate: 19, reverse_charge: false, reason: 'eu_consumer' });
    expect(vatFor({ country: 'FI', isBusiness: true, vatNumberValid: false }).rate).toBe(25.5);
  });

  it('a consumer with a valid number is still a consumer', () => {
    expect(vatFor({ country: 'FR', isBusiness: false, vatNumberValid: true })).toMatchObject({
      rate: 20,
      reason: 'eu_consumer',
    });
  });

  it.each([
    [false, false],
    [true, false],
    [true, true],
  ])('Lithuania (business %s, valid number %s) pays 21 %%', (isBusiness, vatNumberValid) => {
    expect(vatFor({ country: 'LT', isBusiness, vatNumberValid })).toEqual({
      rate: 21,
      reverse_charge: false,
      outside_scope: false,
      reason: 'domestic',
      country: 'LT',
      legal_note_key: null,
    });
  });

  it.each(['US', 'GB', 'XI', 'NO', 'CH', 'UA'])('%s is outside the EU: 0 %%, outside scope', (country) => {
    for (const isBusiness of [false, true]) {
      expect(vatFor({ country, isBusiness, vatNumberValid: isBusiness })).toEqual({
        rate: 0,
        reverse_charge: false,
        outside_scope: true,
        reason: 'outside_eu',
        country,
        legal_note_key: 'outside_scope',
      });
    }
  });

  it('reads country codes loosely but refuses what is not a code', () => {
    expect(vatFor({ country: ' gr ', isBusiness: false, vatNumberValid: false }).rate).toBe(24);
    expect(vatFor({ country: 'EL', isBusiness: false, vatNumberValid: false }).country).toBe('GR');
    expect(normaliseCountry('lt')).toBe('LT');
    expect(() => vatFor({ country: 'LTU', isBusiness: false, vatNumberValid: false })).toThrow(RangeError);
    expect(() => vatFor({ country: '', isBusiness: false, vatNumberValid: false })).toThrow(RangeError);
  });
});
