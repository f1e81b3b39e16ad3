// The transition table and what follows from a status, without a database.
import { describe, expect, it } from 'vitest';
import { errorText, SERVICE_STATUSES, type ServiceStatus } from '@debesis/contract';
import { AppError } from '../../http/app-error.ts';
import {
  CRITICAL_DAYS,
  DAY_MS,
  EXPIRED_GRACE_DAYS,
  EXPIRING_SOON_DAYS,
  NODE_OFFLINE_AFTER_MS,
  QUARANTINE_DAYS,
} from './lifecycle.constants.ts';
import {
  applyStatus,
  assertAllowed,
  availableActions,
  daysLeft,
  display,
  displayState,
  expiryWarning,
  isAllowed,
  LIFECYCLE,
  refusalFor,
  terminatesAt,
  workspaceState,
} from './lifecycle.ts';

function refusal(step: keyof typeof LIFECYCLE, status: ServiceStatus): { code: string; message: string } {
  try {
    assertAllowed(step, status);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.code, message: errorText('en', error.code as 'service_cannot_cancel') };
  }
  throw new Error(`${step} was allowed from ${status}`);
}

describe('the lifecycle table', () => {
  it('names only real statuses, and every owner step refuses somewhere', () => {
    for (const [step, rule] of Object.entries(LIFECYCLE)) {
      for (const status of rule.from) expect(SERVICE_STATUSES, step).toContain(status);
      if (rule.to) expect(SERVICE_STATUSES, step).toContain(rule.to);
    }
    for (const step of ['cancel', 'terminate', 'start', 'stop', 'restart', 'extend'] as const) {
      expect(
        SERVICE_STATUSES.some((status) => !isAllowed(step, status)),
        step,
      ).toBe(true);
    }
  });

  it('refuses cancel and terminate where they are not allowed, in the spec’s words', () => {
    for (const status of ['quarantined', 'cancelled', 'terminated'] as const) {
      expect(refusal('cancel', status)).toEqual({
        code: 'service_cannot_cancel',
        message: 'Cannot cancel or terminate in the current state',
      });
    }
    for (const status of ['awaitingPayment', 'failed', 'processing', 'terminated'] as const) {
      expect(refusal('terminate', status).message).toBe('Cannot cancel or terminate in the current state');
    }
    expect(isAllowed('cancel', 'active')).toBe(true);
    expect(isAllowed('terminate', 'quarantined')).toBe(true);
  });

  it('refuses start, stop and restart outside active with the message of the status', () => {
    expect(refusal('start', 'processing').message).toBe('Service not active or not suspended');
    expect(refusal('restart', 'cancelled').message).toBe('Service not active or not suspended');
    expect(refusal('start', 'expired').message).toBe(
      'This service has expired or is quarantined. Please extend your service to regain access.',
    );
    expect(refusal('restart', 'quarantined').code).toBe('service_expired');
    expect(refusal('start', 'suspended').code).toBe('service_suspended');
    expect(isAllowed('stop', 'suspended')).toBe(true);
    expect(refusal('suspend', 'expired').message).toBe('Service not active or not suspended');
    expect(refusal('reactivate', 'active').message).toBe('Service not active or not suspended');
  });

  it('refuses to extend a service never paid, or one that has ended', () => {
    expect(refusal('extend', 'awaitingPayment')).toEqual({
      code: 'no_billing_period',
      message: 'No billing period set',
    });
    expect(refusal('extend', 'failed').code).toBe('no_billing_period');
    expect(refusal('extend', 'terminated')).toEqual({
      code: 'service_no_expiry',
      message: 'Service has no valid expiration date',
    });
    expect(refusalFor('extend', 'cancelled')).toBe('service_no_expiry');
    for (const status of ['active', 'expired', 'quarantined', 'suspended'] as const) {
      expect(isAllowed('extend', status)).toBe(true);
    }
  });

  it('restores only lapsed services, and expires only running ones', () => {
    expect(LIFECYCLE.restore.from).toEqual(['expired', 'quarantined', 'suspended']);
    expect(LIFECYCLE.expire.from).toEqual(['active', 'suspended']);
    expect(LIFECYCLE.terminateOverdue.from).toEqual(['quarantined', 'cancelled']);
  });
});

describe('what follows from a status', () => {
  const at = new Date('2026-06-01T12:00:00Z');
  const base = {
    status: 'active' as ServiceStatus,
    runState: 'running' as const,
    nodeId: 'node',
    generation: 3,
    observedGeneration: 3,
    lastError: null,
    validUntil: new Date(at.getTime() + 30 * DAY_MS),
    statusChangedAt: at,
  };

  it('tells the node to run, stop or remove', () => {
    expect(workspaceState(base)).toBe('running');
    expect(workspaceState({ ...base, runState: 'stopped' })).toBe('stopped');
    expect(workspaceState({ ...base, status: 'processing' })).toBe('running');
    for (const status of ['suspended', 'expired', 'quarantined', 'cancelled'] as const) {
      expect(workspaceState({ ...base, status })).toBe('stopped');
    }
    expect(workspaceState({ ...base, status: 'terminated' })).toBe('removed');
  });

  it('shows the display states: the status, what the owner asked and what the node said', () => {
    const heard = { ...base, reportedAt: at, startedAt: at };
    expect(displayState({ ...heard, status: 'processing' }, at)).toBe('preparing');
    expect(displayState({ ...heard, status: 'resourcePending' }, at)).toBe('waitingForResources');
    expect(displayState(heard, at)).toBe('running');
    expect(displayState({ ...heard, startedAt: null }, at)).toBe('active');
    expect(displayState({ ...heard, runState: 'stopped' }, at)).toBe('stopped');
    expect(display({ ...heard, notServing: true }, at)).toEqual({ state: 'offline', reason: 'not_serving' });
    expect(display(heard, new Date(at.getTime() + NODE_OFFLINE_AFTER_MS))).toEqual({
      state: 'degraded',
      reason: 'node_silent',
    });
    expect(display({ ...heard, lastError: 'resize failed' }, at)).toEqual({
      state: 'degraded',
      reason: 'change_not_applied',
    });
    // Stopped is stopped, whatever the node says of the daemons it was asked to stop.
    expect(displayState({ ...heard, runState: 'stopped', notServing: true }, at)).toBe('stopped');
    expect(displayState({ ...heard, status: 'quarantined' }, at)).toBe('locked');
    expect(displayState({ ...heard, status: 'failed' }, at)).toBe('failed');
  });

  it('offers only the actions the status allows and that change something', () => {
    expect(availableActions(base)).toEqual(['stop', 'restart', 'extend', 'cancel', 'terminate']);
    expect(availableActions({ ...base, runState: 'stopped' })).toEqual([
      'start',
      'extend',
      'cancel',
      'terminate',
    ]);
    expect(availableActions({ ...base, status: 'resourcePending' })).toEqual([
      'extend',
      'cancel',
      'terminate',
    ]);
    expect(availableActions({ ...base, status: 'processing' })).toEqual(['extend', 'cancel']);
    expect(availableActions({ ...base, status: 'failed' })).toEqual(['retry-payment', 'cancel']);
    expect(availableActions({ ...base, status: 'cancelled' })).toEqual(['terminate']);
    expect(availableActions({ ...base, status: 'terminated' })).toEqual([]);
  });

  it('is applying until the node has applied the generation without error', () => {
    expect(applyStatus(base)).toBe('applied');
    expect(applyStatus({ ...base, generation: 4 })).toBe('applying');
    expect(applyStatus({ ...base, lastError: 'smbd failed' })).toBe('failed');
    expect(applyStatus({ ...base, nodeId: null, status: 'resourcePending' })).toBe('applying');
    expect(applyStatus({ ...base, nodeId: null, status: 'terminated' })).toBe('applied');
  });

  it('warns expiring soon, then critical, with the days left', () => {
    const ending = (days: number) => ({ ...base, validUntil: new Date(at.getTime() + days * DAY_MS) });
    expect(expiryWarning(ending(EXPIRING_SOON_DAYS + 1), at)).toBeNull();
    expect(expiryWarning(ending(EXPIRING_SOON_DAYS), at)).toBe('expiring_soon');
    expect(expiryWarning(ending(CRITICAL_DAYS + 0.5), at)).toBe('expiring_soon');
    expect(expiryWarning(ending(CRITICAL_DAYS), at)).toBe('critical');
    expect(daysLeft(ending(2.2), at)).toBe(3);
    expect(daysLeft(ending(-1), at)).toBe(0);
    expect(expiryWarning({ ...ending(1), status: 'expired' }, at)).toBeNull();
    expect(daysLeft({ ...ending(1), status: 'terminated' }, at)).toBeNull();
  });

  it('dates the deletion of a lapsed or cancelled service', () => {
    expect(terminatesAt({ ...base, status: 'expired' })?.getTime()).toBe(
      base.validUntil.getTime() + (EXPIRED_GRACE_DAYS + QUARANTINE_DAYS) * DAY_MS,
    );
    expect(terminatesAt({ ...base, status: 'cancelled' })?.getTime()).toBeGreaterThan(at.getTime());
    expect(terminatesAt(base)).toBeNull();
  });
});
