// The D-Bus wire code: what it writes reads back the same, replies of ganesha's shapes are read,
// and a real dbus-daemon (when installed) answers it, errors included. nfs.live.test.ts talks to
// ganesha itself through it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderBusConfig } from '../nfs/ganesha-dbus.ts';
import { firstMissingProgram } from '../system/host.ts';
import { decodeMessage, encodeCall, splitSignature, withDbus, DbusError } from './dbus.ts';

describe('D-Bus messages', () => {
  it('splits a signature into complete types', () => {
    expect(splitSignature('(tt)a(sbb(tt))qa{sv}as')).toEqual(['(tt)', 'a(sbb(tt))', 'q', 'a{sv}', 'as']);
  });

  it('reads back the call it writes: header fields and arguments, aligned', () => {
    const message = encodeCall(
      {
        destination: 'org.ganesha.nfsd',
        path: '/org/ganesha/nfsd/ExportMgr',
        interface: 'org.ganesha.nfsd.exportstats',
        member: 'GetNFSv40IO',
        signature: 'qsu',
        args: [40132, '::ffff:198.19.0.2', 7],
      },
      9,
    );
    expect(message.readUInt32LE(8)).toBe(9);
    expect(decodeMessage(message)).toEqual({ type: 1, body: [40132, '::ffff:198.19.0.2', 7] });
  });

  it('refuses a call whose arguments do not match its signature', () => {
    expect(() =>
      encodeCall(
        { destination: 'd', path: '/p', interface: 'i.f', member: 'M', signature: 'qq', args: [1] },
        1,
      ),
    ).toThrow(DbusError);
  });
});

const missing = await firstMissingProgram(['dbus-daemon']);

describe.skipIf(missing !== undefined)('against a real dbus-daemon', () => {
  let dir: string;
  let socket: string;
  let bus: ChildProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agent-dbus-'));
    socket = join(dir, 'bus.sock');
    // The bus ganesha gets, admitting whoever runs this test.
    const config = renderBusConfig(socket).replace('user="root"', `user="${process.getuid?.() ?? 0}"`);
    await writeFile(join(dir, 'bus.conf'), config);
    bus = spawn('dbus-daemon', ['--nofork', '--nopidfile', `--config-file=${join(dir, 'bus.conf')}`], {
      stdio: 'ignore',
    });
    for (let tries = 0; tries < 100; tries++) {
      if (
        await stat(socket).then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('dbus-daemon did not start');
  });

  afterAll(async () => {
    bus?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  const DBUS = {
    destination: 'org.freedesktop.DBus',
    path: '/org/freedesktop/DBus',
    interface: 'org.freedesktop.DBus',
  };

  it('calls methods one after another on one connection', async () => {
    const [names, owned] = await withDbus(socket, async (call) => [
      await call.call({ ...DBUS, member: 'ListNames' }),
      await call.call({ ...DBUS, member: 'NameHasOwner', signature: 's', args: ['org.ganesha.nfsd'] }),
    ]);
    expect(names?.[0]).toContain('org.freedesktop.DBus');
    expect(owned).toEqual([false]);
  });

  it("answers the bus's error as a DbusError with its name", async () => {
    const error = await withDbus(socket, (call) =>
      call.call({ ...DBUS, destination: 'org.ganesha.nfsd', member: 'ShowClients' }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DbusError);
    expect((error as DbusError).name).toBe('org.freedesktop.DBus.Error.ServiceUnknown');
  });

  it('fails, not hangs, when nobody listens', async () => {
    await expect(withDbus(join(dir, 'none.sock'), async () => 1, { timeoutMs: 1000 })).rejects.toMatchObject({
      name: 'io',
    });
  });
});
