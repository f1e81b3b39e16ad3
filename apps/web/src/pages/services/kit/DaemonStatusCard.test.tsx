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

function stateText(overrides: Partial<DaemonReport>): string {
  const view = render(
    <DaemonStatusCard
      title="FTP server"
      name="FTP"
      status={{ data: report(overrides), isPending: false, isError: false }}
      testId="ftp"
    />,
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

  it('speaks Lithuanian too', async () => {
    await i18n.changeLanguage('lt');
    try {
      expect(stateText({ live: false, reason: 'x' })).toBe('Ne: FTP paruošta, tačiau neveikia (x)');
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
