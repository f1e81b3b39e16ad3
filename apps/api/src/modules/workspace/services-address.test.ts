// Issue 36 points 2 and 13: every status and connect field that names where a client connects
// gives the address the node's daemons answer on. A NAT plan (Starter) binds Samba, NFS, FTP, SFTP
// and LDAP only inside its VPN (the agent's serving-address.ts), so its statuses name the tunnel's
// server address, never the pool address they would time out on; a dedicated plan names its own.
import { describe, expect, it } from 'vitest';
import {
  VPN_TUNNEL_SERVER_ADDRESS,
  type FtpStatus,
  type LdapConfig,
  type LdapStatus,
  type NfsExport,
  type NfsExportsResponse,
  type NfsStatus,
  type SambaStatus,
} from '@debesis/contract';
import {
  useWorkspaceTestApp,
  ownerWithService,
  setService,
  type Auth,
} from '../directory/workspace.test-support.ts';

describe('the address every protocol status names', () => {
  let placedCount = 0;
  const { ctx, call, node } = useWorkspaceTestApp({
    node: { name: 'address-node', addresses: ['10.18.0.1'] },
  });

  /** A placed service of the plan, with one NFS export; its pool address. */
  async function workspace(productId: 'mini' | 'starter'): Promise<{ auth: Auth; id: string; pool: string }> {
    const { auth, serviceId } = await ownerWithService(ctx);
    placedCount += 1;
    const pool = `10.18.1.${placedCount}`;
    await setService(ctx, serviceId, {
      productId,
      nodeId: node.id,
      address: pool,
      idBase: 7_500_000 + placedCount * 10_000,
    });
    return { auth, id: serviceId, pool };
  }
  const get = async <T>(auth: Auth, url: string): Promise<T> => {
    const response = await call.get(auth, url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<T>();
  };

  /** Every field naming where a client connects, per feature. */
  async function named(auth: Auth, id: string) {
    const created = await call.post(auth, `/api/v1/nfs/${id}/shares`, {
      path: 'shares/projektai',
      client: '192.168.1.0/24',
    });
    expect(created.statusCode, created.body).toBe(201);
    const ldap = `/api/v1/ldap/services/${id}/ldap`;
    return {
      samba: (await get<SambaStatus>(auth, `/api/v1/samba/${id}/status`)).address,
      nfs: (await get<NfsStatus>(auth, `/api/v1/nfs/${id}/status`)).address,
      nfsMountCreated: created.json<NfsExport>().mount,
      nfsMountListed: (await get<NfsExportsResponse>(auth, `/api/v1/nfs/${id}/shares`)).exports[0]?.mount,
      ftp: (await get<FtpStatus>(auth, `/api/v1/ftp/${id}/status`)).address,
      ldap: (await get<LdapStatus>(auth, `${ldap}/status`)).address,
      ldapUris: (await get<LdapConfig>(auth, `${ldap}/config`)).uris,
    };
  }

  it.each([
    ['a NAT plan (Starter): the VPN-side address, where its daemons listen', 'starter', true],
    ['a dedicated plan (MINI): the workspace’s own address', 'mini', false],
  ] as const)('%s', async (_, productId, nat) => {
    const { auth, id, pool } = await workspace(productId);
    const expected = nat ? VPN_TUNNEL_SERVER_ADDRESS : pool;
    expect(await named(auth, id)).toEqual({
      samba: expected,
      nfs: expected,
      nfsMountCreated: `${expected}:/shares/projektai`,
      nfsMountListed: `${expected}:/shares/projektai`,
      ftp: expected,
      ldap: expected,
      ldapUris: [`ldap://${expected}:389`, `ldaps://${expected}:636`],
    });
  });

  it('names no address before the service is placed', async () => {
    const { auth, serviceId } = await ownerWithService(ctx);
    await setService(ctx, serviceId, { productId: 'starter' });
    expect((await get<SambaStatus>(auth, `/api/v1/samba/${serviceId}/status`)).address).toBeNull();
    expect((await get<FtpStatus>(auth, `/api/v1/ftp/${serviceId}/status`)).address).toBeNull();
    expect((await get<LdapConfig>(auth, `/api/v1/ldap/services/${serviceId}/ldap/config`)).uris).toEqual([]);
  });
});
