// A workspace's FTP and SFTP as the API answers for them (status, users, settings), and their
// fake routes, for the FTP tabs' tests.
import { FTP_DEFAULT_SETTINGS, type FtpSettings, type FtpStatus, type FtpUser } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { SERVICE_ID } from './service-fixtures.ts';
import { AT, APPLIED_DAEMON } from './applied.ts';

export const ftpPath = (path = '') => `/api/v1/ftp/${SERVICE_ID}${path}`;

/** An active user who may sign in, read and write, applied. */
export function makeFtpUser(overrides: Partial<FtpUser> = {}): FtpUser {
  return {
    name: 'alice',
    active: true,
    enabled: true,
    permissions: 'read_write',
    sessions: 0,
    apply_status: 'applied',
    apply_error: null,
    ...overrides,
  };
}

export function makeFtpStatus(overrides: Partial<FtpStatus> = {}): FtpStatus {
  return {
    ...APPLIED_DAEMON,
    ftp: { enabled: true, port: 21, serving: true, live: true, reason: null },
    sftp: { enabled: true, port: 22, serving: true, live: true, reason: null },
    mode: 'passive',
    passive_port_min: 30000,
    passive_port_max: 30099,
    tls_required: false,
    users: 1,
    users_total: 1,
    sessions: 0,
    ...overrides,
  };
}

export function makeFtpSettings(overrides: Partial<FtpSettings> = {}): FtpSettings {
  return {
    ...FTP_DEFAULT_SETTINGS,
    anonymous: false,
    default: true,
    apply_status: 'applied',
    apply_error: null,
    ...overrides,
  };
}

/** The routes the FTP tabs read, with what is given. */
export function ftpHandlers({
  users = [makeFtpUser()],
  status = makeFtpStatus(),
  settings = makeFtpSettings(),
} = {}) {
  return [
    http.get(ftpPath('/status'), () => HttpResponse.json(status)),
    http.get(ftpPath('/users'), () => HttpResponse.json({ users })),
    http.get(ftpPath('/sessions'), () => HttpResponse.json({ sessions: [], reported_at: AT })),
    http.get(ftpPath('/settings'), () => HttpResponse.json(settings)),
  ];
}
