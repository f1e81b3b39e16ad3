import { describe, expect, it } from 'vitest';
import { fieldErrorFromIssue } from './error-handler.ts';

describe('fieldErrorFromIssue', () => {
  it('uses a catalogue code given by the schema as the message', () => {
    expect(fieldErrorFromIssue('theme', 'invalid_value', 'invalid_theme', {})).toEqual({
      field: 'theme',
      code: 'invalid_theme',
    });
  });

  it('tells a missing field from a wrong type', () => {
    expect(
      fieldErrorFromIssue('a', 'invalid_type', 'Invalid input: expected string, received undefined', {}).code,
    ).toBe('required');
    expect(
      fieldErrorFromIssue('a', 'invalid_type', 'Invalid input: expected string, received number', {}).code,
    ).toBe('invalid_type');
  });

  it('gives string and number limits with their values', () => {
    expect(fieldErrorFromIssue('p', 'too_small', 'x', { origin: 'string', minimum: 8 })).toEqual({
      field: 'p',
      code: 'too_short',
      values: { minimum: 8 },
    });
    expect(fieldErrorFromIssue('n', 'too_big', 'x', { origin: 'number', maximum: 5 })).toEqual({
      field: 'n',
      code: 'too_big',
      values: { maximum: 5 },
    });
  });

  it('maps email format, unknown keys and anything else', () => {
    expect(fieldErrorFromIssue('e', 'invalid_format', 'x', { format: 'email' }).code).toBe('invalid_email');
    expect(fieldErrorFromIssue('e', 'invalid_format', 'x', { format: 'regex' }).code).toBe('invalid_format');
    expect(fieldErrorFromIssue('', 'unrecognized_keys', 'x', { keys: ['z'] }).code).toBe('unknown_field');
    expect(fieldErrorFromIssue('u', 'invalid_union', 'x', {}).code).toBe('invalid_value');
  });
});
