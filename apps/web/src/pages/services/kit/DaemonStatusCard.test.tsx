import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '../../../i18n/workspace-messages.ts';
import { i18n } from '../../../i18n/i18n.ts';
import { makeStatus } from '../../../test/workspace-fixtures.ts';
import { DaemonStatusCard, daemonState, driverReport, type DaemonReport } from './DaemonStatusCard.tsx';

const report = (overrides: Partial<DaemonReport>): DaemonReport => ({
  placed: true,
  live: true,
  reason: null,
  apply_status: 'applied',
  ...overrides,
});

function stateText(overrides: Partial<DaemonReport>, notNeeded?: string | null): string {
  const view = render(
    <QueryClientProvider client={new QueryClient()}>
      <DaemonStatusCard
        title="FTP server"
        name="FTP"
        status={{ data: report(overrides), isPending: false, isError: false }}
        testId="ftp"
        notNeeded={notNeeded}
        address={{ label: 'Host', value: overrides.placed === false ? null : '10.8.0.1', testId: 'ftp-host' }}
      />
    </QueryClientProvider>,
  );
  const text = screen.getByTestId('ftp-live').textContent ?? '';
  view.unmount();
  return text;
}

describe('the daemon status card', () => {
  it('says in plain words whether the daemon serves, and why not', () => {
    expect(stateText({})).toBe('Yes: FTP is running and clients can connect');
    expect(stateText({ live: false, reason: 'vsftpd is not installed' })).toBe(
      'No: FTP is set up but not running (vsftpd is not installed)',
    );
    expect(stateText({ live: false, apply_status: 'failed', error: 'config check failed' })).toBe(
      'No: FTP could not be started or changed (config check failed)',
    );
    expect(stateText({ live: null })).toBe('Waiting for the storage node’s report');
    expect(stateText({ placed: false, live: null })).toBe('Not placed on a storage node yet');
  });

  it('says "not needed" with the tab’s reason, or the node’s, and never an alarm for it', () => {
    const stopped = { live: true, reason: 'not needed: FTP is off' };
    expect(stateText(stopped, 'switched off in the settings')).toBe(
      'Not needed: switched off in the settings',
    );
    // A tab that does not know takes the node's word.
    expect(stateText(stopped)).toBe('Not needed: FTP is off');
    // The owner has just set something up: the node starts it next, it is not "serving" yet.
    expect(stateText(stopped, null)).toBe('Waiting for the storage node’s report');
    // A failure is told whatever the feature needs.
    expect(stateText({ live: false, apply_status: 'failed', error: 'bad' }, 'nothing set up')).toBe(
      'No: FTP could not be started or changed (bad)',
    );
    expect(daemonState(report({}), undefined, 'no shares yet')).toEqual({
      kind: 'notNeeded',
      reason: 'no shares yet',
    });
  });

  it('shows where clients connect, or that it is not placed yet', () => {
    const view = render(
      <QueryClientProvider client={new QueryClient()}>
        <DaemonStatusCard
          title="Samba"
          name="Samba"
          status={{ data: report({}), isPending: false, isError: false }}
          testId="samba"
          address={{
            label: 'Address',
            value: '10.8.0.1',
            shown: (host) => `\\\\${host}`,
            testId: 'samba-address',
          }}
        />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('samba-address').textContent).toBe('\\\\10.8.0.1');
    view.unmount();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <DaemonStatusCard
          title="Samba"
          name="Samba"
          status={{ data: report({ placed: false, live: null }), isPending: false, isError: false }}
          testId="samba"
          address={{ label: 'Address', value: null, testId: 'samba-address' }}
        />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('samba-address').textContent).toBe('Not placed on a storage node yet');
  });

  it('speaks Lithuanian too', async () => {
    await i18n.changeLanguage('lt');
    try {
      expect(stateText({ live: false, reason: 'x' })).toBe('Ne: FTP paruošta, tačiau neveikia (x)');
      expect(stateText({ live: true }, 'išjungta')).toBe('Nereikalinga: išjungta');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('reads a driver from the service’s status: not named yet means no report yet', () => {
    const status = makeStatus({
      placed: true,
      drivers: [{ driver: 'samba', live: false, reason: 'smbd exited' }],
    });
    expect(daemonState(driverReport(status, 'samba'))).toEqual({ kind: 'notServing', reason: 'smbd exited' });
    expect(daemonState(driverReport(status, 'ftp'))).toEqual({ kind: 'waiting' });
  });
});
