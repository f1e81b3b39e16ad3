// What a failed refresh means (refresh.ts): the server refusing the token, or no usable answer.
import { describe, expect, it } from 'vitest';
import { isNoAnswerStatus, refreshFailureOutcome } from './refresh.ts';

describe('refreshFailureOutcome', () => {
  it.each([null, 408, 429, 500, 502, 503, 504, 599])('%s is no answer: the request is replayed', (status) => {
    expect(refreshFailureOutcome(status)).toBe('unavailable');
  });

  it.each([400, 401, 403, 404, 409, 422])('%s is the server refusing the token', (status) => {
    expect(refreshFailureOutcome(status)).toBe('rejected');
  });

  it('names exactly 408, 429 and the 5xx as statuses that say nothing about the token', () => {
    const noAnswer = Array.from({ length: 300 }, (_, index) => 300 + index).filter(isNoAnswerStatus);
    expect(noAnswer).toEqual([408, 429, ...Array.from({ length: 100 }, (_, index) => 500 + index)]);
  });
});
