import { describe, expect, it } from 'vitest';
import { pickLanguage } from './language.ts';

describe('pickLanguage', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['lt', 'lt'],
    ['en', 'en'],
    ['lt-LT,lt;q=0.9,en;q=0.8', 'lt'],
    ['de-DE,de;q=0.9,lt;q=0.8,en;q=0.7', 'lt'],
    ['en;q=0.5,lt;q=0.9', 'lt'],
    ['fr', 'en'],
    ['lt;q=0', 'en'],
    ['*', 'en'],
    [';;;,,q=abc', 'en'],
  ])('%s → %s', (header, expected) => {
    expect(pickLanguage(header)).toBe(expected);
  });
});
