// The Linux-user portal's calls (the contract's linux-user.ts), each with the portal's own token
// (STORAGE_KEYS.linuxUserToken), never the owner's: the shared client keeps an Authorization it
// is given and never tries the owner's refresh for a `lut_` token (api/bearer.ts).
import {
  LINUX_USER_API_BASE,
  LINUX_USER_LOGIN_PATH,
  STORAGE_KEYS,
  linuxUserChangePasswordResponseSchema,
  linuxUserMeSchema,
  linuxUserServiceSchema,
  linuxUserSharesResponseSchema,
  linuxUserTokenResponseSchema,
  type LinuxUserChangePasswordRequest,
} from '@debesis/contract';
import { api } from '../../api/client.ts';
import { readStorage, removeStorage, writeStorage } from '../../lib/storage.ts';
import { downloadOvpn } from '../../workspace/vpn-api.ts';

export const getPortalToken = (): string | null => readStorage(STORAGE_KEYS.linuxUserToken);
export const storePortalToken = (token: string): void => writeStorage(STORAGE_KEYS.linuxUserToken, token);
export const clearPortalToken = (): void => removeStorage(STORAGE_KEYS.linuxUserToken);

const withToken = () => ({ headers: { Authorization: `Bearer ${getPortalToken() ?? ''}` } });

export const portalApi = {
  /** The password grant, form-encoded as the spec has it; the token is kept for the portal only. */
  async signIn(serviceId: string, username: string, password: string): Promise<void> {
    const form = new URLSearchParams({ username, password, grant_type: 'password', client_id: serviceId });
    const answer = await api.post(LINUX_USER_LOGIN_PATH, form.toString(), linuxUserTokenResponseSchema, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    storePortalToken(answer.access_token);
  },
  me: () => api.get(`${LINUX_USER_API_BASE}/me`, linuxUserMeSchema, withToken()),
  service: () => api.get(`${LINUX_USER_API_BASE}/service`, linuxUserServiceSchema, withToken()),
  shares: () => api.get(`${LINUX_USER_API_BASE}/shares`, linuxUserSharesResponseSchema, withToken()),
  /** The old token ends with the old password: the answer's new one is kept. */
  async changePassword(body: LinuxUserChangePasswordRequest) {
    const answer = await api.post(
      `${LINUX_USER_API_BASE}/change-password`,
      body,
      linuxUserChangePasswordResponseSchema,
      withToken(),
    );
    storePortalToken(answer.access_token);
    return answer;
  },
  downloadVpnConfig: (username: string) =>
    downloadOvpn(`${LINUX_USER_API_BASE}/vpn-config/download`, `${username}.ovpn`, withToken().headers),
};
