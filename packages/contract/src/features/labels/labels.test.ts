import { describe, expect, it } from 'vitest';
import { labelKeySchema, labelValueSchema } from './labels.ts';

const codeOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  result.success ? null : (result.error?.issues[0]?.message ?? 'unknown');

describe('label keys and values', () => {
  it('take keys of 1-63 lower-case letters, digits, dots, hyphens and underscores, a letter or digit at each end', () => {
    for (const key of ['env', 'a', '9', 'team.name', 'cost_centre-2', 'k'.repeat(63)]) {
      expect(codeOf(labelKeySchema.safeParse(key)), key).toBeNull();
    }
    for (const key of [
      '',
      'Env',
      '-env',
      'env-',
      '.env',
      'env_',
      'e=v',
      'a b',
      'k'.repeat(64),
      'ąžuolas',
      'env\0',
    ]) {
      expect(codeOf(labelKeySchema.safeParse(key)), key).toMatch(/^(label_key_invalid|invalid_characters)$/);
    }
  });

  it('take empty values, or 1-63 letters of any case, digits, dots, hyphens and underscores', () => {
    for (const value of ['', 'prod', 'Prod', 'X', 'v1.2_RC-3', 'V'.repeat(63)]) {
      expect(codeOf(labelValueSchema.safeParse(value)), value).toBeNull();
    }
    for (const value of ['-prod', 'prod.', '_', 'a b', 'x,y', 'V'.repeat(64), 'žalias']) {
      expect(codeOf(labelValueSchema.safeParse(value)), value).toBe('label_value_invalid');
    }
  });
});
