// When a remembered resize problem is tried again (the resize itself needs root and loop devices:
// storage.live.security.test.ts). Issue 13: the owner's Restart must restart what is broken, so a
// failed grow that left the workspace at its old size is tried again at once on a new restart_token.
import { describe, expect, it } from 'vitest';
import { resizeDue, type ResizeRecord } from './storage-image.driver.ts';

const AT = 1_700_000_000_000;
const failed: ResizeRecord = {
  wanted: 4096 * 100,
  at: AT,
  reason: 'the storage image is still in use',
  refused: false,
};
const refused: ResizeRecord = { ...failed, reason: 'the data needs more', refused: true };

describe('a remembered resize problem', () => {
  it('is not tried on every pass: a failure after a minute, a refusal only for another size', () => {
    expect(resizeDue(failed, failed.wanted, AT + 1000, undefined)).toBe(false);
    expect(resizeDue(failed, failed.wanted, AT + 60_000, undefined)).toBe(true);
    expect(resizeDue(refused, refused.wanted, AT + 3_600_000, undefined)).toBe(false);
    expect(resizeDue(refused, refused.wanted + 4096, AT + 1000, undefined)).toBe(true);
  });

  it('is tried again at once when the owner restarts the workspace (a new restart_token), once per restart', () => {
    expect(resizeDue(failed, failed.wanted, AT + 1000, '7')).toBe(true);
    expect(resizeDue(refused, refused.wanted, AT + 1000, '7')).toBe(true);
    // Tried under restart 7 and failed again: not again until the pause is over or a new restart.
    const triedUnder7 = { ...failed, restart_token: '7' };
    expect(resizeDue(triedUnder7, failed.wanted, AT + 1000, '7')).toBe(false);
    expect(resizeDue(triedUnder7, failed.wanted, AT + 1000, '8')).toBe(true);
  });
});
