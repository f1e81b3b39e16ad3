import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EU_COUNTRIES } from './vat.ts';
import { checkVatNumber, vatNumberEntryError, vatPrefixFor } from './vat-number.ts';

// Per member state: numbers that pass, numbers with a wrong check digit, numbers of the wrong shape.
const SAMPLES: Record<string, { valid: string[]; badChecksum: string[]; badFormat: string[] }> = {
  AT: { valid: ['ATU13585627'], badChecksum: ['ATU13585626'], badFormat: ['ATU1358562', 'AT13585627'] },
  BE: {
    valid: ['BE0403019261', 'BE 0428.759.497'],
    badChecksum: ['BE0403019262'],
    badFormat: ['BE04030192'],
  },
  BG: { valid: ['BG175074752'], badChecksum: ['BG175074754'], badFormat: ['BG17507475'] },
  CY: { valid: ['CY10259033P'], badChecksum: ['CY10259033Z'], badFormat: ['CY1025903P'] },
  CZ: { valid: ['CZ25123891'], badChecksum: ['CZ25123890'], badFormat: ['CZ1234567'] },
  DE: { valid: ['DE136695976'], badChecksum: ['DE136695978'], badFormat: ['DE13669597', 'DE1366959761'] },
  DK: { valid: ['DK13585628', 'DK19319970'], badChecksum: ['DK13585627'], badFormat: ['DK1358562'] },
  EE: { valid: ['EE100594102', 'EE100931558'], badChecksum: ['EE100594103'], badFormat: ['EE10059410'] },
  ES: {
    valid: ['ESB58378431', 'ES54362315K'],
    badChecksum: ['ESB58378432', 'ES54362315A'],
    badFormat: ['ESB5837843'],
  },
  FI: { valid: ['FI20774740'], badChecksum: ['FI20774741'], badFormat: ['FI2077474'] },
  FR: {
    valid: ['FR40303265045', 'FRK7399859412'],
    badChecksum: ['FR41303265045'],
    badFormat: ['FR4030326504'],
  },
  GR: { valid: ['EL094259216'], badChecksum: ['EL094259217'], badFormat: ['EL09425921X'] },
  HR: { valid: ['HR33392005961'], badChecksum: ['HR33392005962'], badFormat: ['HR3339200596'] },
  HU: { valid: ['HU12892312'], badChecksum: ['HU12892313'], badFormat: ['HU1289231'] },
  IE: {
    valid: ['IE6433435F', 'IE6433435OA', 'IE8D79739I'],
    badChecksum: ['IE6433435E'],
    badFormat: ['IE643343F'],
  },
  IT: { valid: ['IT00743110157'], badChecksum: ['IT00743110158'], badFormat: ['IT0074311015'] },
  LT: {
    valid: ['LT119511515', 'LT100001919017'],
    badChecksum: ['LT119511516', 'LT100001919018'],
    badFormat: ['LT12345678', 'LT119511525'],
  },
  LU: { valid: ['LU15027442'], badChecksum: ['LU15027443'], badFormat: ['LU1502744'] },
  LV: { valid: ['LV40003521600'], badChecksum: ['LV40003521601'], badFormat: ['LV4000352160'] },
  MT: { valid: ['MT11679112'], badChecksum: ['MT11679113'], badFormat: ['MT1167911'] },
  NL: {
    valid: ['NL004495445B01', 'NL002455799B11'],
    badChecksum: ['NL004495446B01'],
    badFormat: ['NL004495445X01'],
  },
  PL: { valid: ['PL8567346215'], badChecksum: ['PL8567346216'], badFormat: ['PL856734621'] },
  PT: { valid: ['PT501964843'], badChecksum: ['PT501964842'], badFormat: ['PT50196484'] },
  RO: { valid: ['RO18547290'], badChecksum: ['RO18547291'], badFormat: ['RO12345678901'] },
  SE: { valid: ['SE123456789701'], badChecksum: ['SE123456789101'], badFormat: ['SE1234567897'] },
  SI: { valid: ['SI50223054'], badChecksum: ['SI50223053'], badFormat: ['SI5022305'] },
  SK: { valid: ['SK2022749619'], badChecksum: ['SK2022749618'], badFormat: ['SK202274961'] },
};

describe('checkVatNumber', () => {
  it('has samples for every member state', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual([...EU_COUNTRIES].sort());
  });

  describe.each(EU_COUNTRIES)('%s', (country) => {
    const samples = SAMPLES[country];
    if (!samples) throw new Error(`no samples for ${country}`);
    it.each(samples.valid)('accepts %s', (number) => {
      const check = checkVatNumber(number);
      expect(check).toMatchObject({
        country,
        prefix: vatPrefixFor(country),
        valid_format: true,
        valid_checksum: true,
        valid: true,
        problem: null,
      });
      expect(check.normalised).toMatch(new RegExp(`^${vatPrefixFor(country)}[0-9A-Z]+$`));
    });
    it.each(samples.badChecksum)('finds the wrong check digit in %s', (number) => {
      expect(checkVatNumber(number)).toMatchObject({
        country,
        valid_format: true,
        valid_checksum: false,
        valid: false,
        problem: 'invalid_checksum',
      });
    });
    it.each(samples.badFormat)('finds the wrong shape of %s', (number) => {
      expect(checkVatNumber(number)).toMatchObject({
        country,
        normalised: null,
        valid_format: false,
        valid_checksum: false,
        valid: false,
        problem: 'invalid_format',
      });
    });
  });

  it('normalises case, spaces and separators, and pads as VIES expects', () => {
    expect(checkVatNumber(' lt 1000-0191.9017 ').normalised).toBe('LT100001919017');
    expect(checkVatNumber('BE 403 019 261').normalised).toBe('BE0403019261');
    expect(checkVatNumber('NL4495445B01').normalised).toBe('NL004495445B01');
  });

  it('writes Greece as EL in the number and GR as the country, whichever prefix is given', () => {
    for (const input of ['EL094259216', 'el 094 259 216', 'GR094259216']) {
      expect(checkVatNumber(input)).toMatchObject({
        country: 'GR',
        prefix: 'EL',
        normalised: 'EL094259216',
        valid: true,
      });
    }
    expect(checkVatNumber('094259216', 'GR').normalised).toBe('EL094259216');
  });

  it('takes the country from the second argument when the number has no prefix', () => {
    expect(checkVatNumber('136695976', 'de')).toMatchObject({
      country: 'DE',
      normalised: 'DE136695976',
      valid: true,
    });
    expect(checkVatNumber('LT119511515', 'DE')).toMatchObject({ country: 'LT', valid: true });
    expect(checkVatNumber('136695976')).toMatchObject({ valid: false, problem: 'missing_country' });
  });

  it('says what is wrong with numbers that are not EU VAT numbers at all', () => {
    expect(checkVatNumber('')).toMatchObject({ valid: false, problem: 'empty', country: null });
    expect(checkVatNumber('   ')).toMatchObject({ problem: 'empty' });
    expect(checkVatNumber('GB123456789')).toMatchObject({ problem: 'not_eu', country: null });
    expect(checkVatNumber('XI123456782')).toMatchObject({ problem: 'not_eu' });
    expect(checkVatNumber('DE')).toMatchObject({ problem: 'invalid_format', country: 'DE' });
  });
});

// Independent implementations of two national rules, to cross-check the library on many numbers.
function germanCheckDigit(first8: string): number {
  let product = 10;
  for (const char of first8) {
    let sum = (Number(char) + product) % 10;
    if (sum === 0) sum = 10;
    product = (2 * sum) % 11;
  }
  const check = 11 - product;
  return check === 10 ? 0 : check;
}

function polishCheckDigit(first9: string): number {
  const weights = [6, 5, 7, 2, 3, 4, 5, 6, 7];
  return [...first9].reduce((sum, char, index) => sum + Number(char) * (weights[index] ?? 0), 0) % 11;
}

describe('checksums agree with the national rules', () => {
  it('DE (ISO 7064 MOD 11,10)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000_000, max: 99_999_999 }),
        fc.integer({ min: 1, max: 9 }),
        (base, shift) => {
          const digits = String(base);
          const check = germanCheckDigit(digits);
          expect(checkVatNumber(`DE${digits}${check}`).valid).toBe(true);
          const wrong = checkVatNumber(`DE${digits}${(check + shift) % 10}`);
          expect(wrong.problem).toBe('invalid_checksum');
        },
      ),
    );
  });

  it('PL (NIP weights 6 5 7 2 3 4 5 6 7, mod 11)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100_000_000, max: 999_999_999 }),
        fc.integer({ min: 1, max: 9 }),
        (base, shift) => {
          const digits = String(base);
          const check = polishCheckDigit(digits);
          if (check === 10) {
            expect(checkVatNumber(`PL${digits}0`).valid).toBe(false);
            return;
          }
          expect(checkVatNumber(`PL${digits}${check}`).valid).toBe(true);
          expect(checkVatNumber(`PL${digits}${(check + shift) % 10}`).valid).toBe(false);
        },
      ),
    );
  });
});

describe('vatNumberEntryError', () => {
  it('keeps a valid number, however it is typed, and an empty one', () => {
    expect(vatNumberEntryError('lt 100001919017', 'LT')).toBeNull();
    expect(vatNumberEntryError('DE136695976')).toBeNull();
    expect(vatNumberEntryError('  ', 'LT')).toBeNull();
  });

  it("refuses another member state's number for a business in a member state (EL is Greece's)", () => {
    expect(vatNumberEntryError('DE136695976', 'LT')).toBe('vat_country_mismatch');
    expect(vatNumberEntryError('LT100001919017', 'DE')).toBe('vat_country_mismatch');
    expect(vatNumberEntryError('EL094259216', 'GR')).toBeNull();
    expect(vatNumberEntryError('LT100001919017', 'lt')).toBeNull();
  });

  it('refuses a wrong check digit and a wrong shape with their own codes', () => {
    expect(vatNumberEntryError('LT100001919018', 'LT')).toBe('invalid_vat_checksum');
    expect(vatNumberEntryError('DE136695978')).toBe('invalid_vat_checksum');
    expect(vatNumberEntryError('LT123', 'LT')).toBe('invalid_vat_number');
    expect(vatNumberEntryError('100001919017')).toBe('invalid_vat_number');
  });

  it('leaves a number of a state outside the EU alone, except for a business in the EU', () => {
    expect(vatNumberEntryError('NO123456789MVA', 'NO')).toBeNull();
    expect(vatNumberEntryError('NO123456789MVA')).toBeNull();
    expect(vatNumberEntryError('XX123456789', 'LT')).toBe('invalid_vat_number');
  });
});
