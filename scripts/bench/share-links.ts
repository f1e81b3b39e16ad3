// Share links' figures of issue 19 (acceptance 4): the throughput of a 1 GB file downloaded with
// curl through a link — the node agent reads it and uploads it as a stream node call, the API
// pipes it to curl — against curl of the same file from a plain static server (node:http and
// fs.createReadStream, its own process) in the same run, alternated, median of three each (target
// ≥ 70%); and the product's memory while a folder of ~1 GB is zipped and downloaded through a
// link (target: flat — the zip is written as it is read, one file at a time).
//
// The product is `npm start`'s (embedded agent, plain-folder storage): what is timed is the bytes'
// way through the agent and the API, not a disk image. The file is in the page cache for both
// sides (written just before, read once before timing).
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createVerifiedAccounts, signInTokens } from '../lib/accounts.ts';
import { freePort, startProduct, waitForHttp } from '../lib/processes.ts';
import { buyWorkspace, cheapestPlan, customerApi, json, terminateWorkspace } from '../lib/workspace-api.ts';
import { median } from './vpn.ts';

const run = promisify(execFile);
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const ROUNDS = 3;

export interface ShareLinkFigures {
  skipped?: string;
  fileBytes: number;
  /** MB/s of each round (10^6 bytes a second, as curl counts). */
  linkMBps: number[];
  staticMBps: number[];
  ratio: number;
  /** The product's resident memory (MiB) before, at most during, and after the zip download. */
  zip: { bytes: number; seconds: number; rssBeforeMiB: number; rssMaxMiB: number; rssAfterMiB: number };
}

/** A file of `bytes` made of one random mebibyte over and over (fast to write, not compressible per MiB). */
function writeBigFile(file: string, bytes: number): void {
  const chunk = randomBytes(MIB);
  const fd = openSync(file, 'w');
  try {
    for (let written = 0; written < bytes; written += MIB)
      writeSync(fd, chunk, 0, Math.min(MIB, bytes - written));
  } finally {
    closeSync(fd);
  }
}

async function curlSpeed(url: string): Promise<{ MBps: number; bytes: number; seconds: number }> {
  const { stdout } = await run(
    'curl',
    ['-s', '-o', '/dev/null', '-w', '%{speed_download} %{size_download} %{time_total}', url],
    {
      timeout: 600_000,
    },
  );
  const [speed = '0', size = '0', time = '0'] = stdout.trim().split(' ');
  return { MBps: Math.round(Number(speed) / 1e6), bytes: Number(size), seconds: Number(time) };
}

const rssMiB = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((each) => each.startsWith('VmRSS:'));
  return Math.round(Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) / 1024);
};

/** A plain static file server, in a process of its own. */
async function startStaticServer(file: string) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const http = require('node:http'), fs = require('node:fs');
       http.createServer((req, res) => {
         if (req.url === '/ready') return res.writeHead(204).end();
         res.writeHead(200, { 'content-length': fs.statSync(${JSON.stringify(file)}).size });
         fs.createReadStream(${JSON.stringify(file)}).pipe(res);
       }).listen(${port}, '127.0.0.1');`,
    ],
    { stdio: 'ignore' },
  );
  await waitForHttp(`http://127.0.0.1:${port}/ready`, 10_000);
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGTERM') };
}

export async function measureShareLinks(): Promise<ShareLinkFigures> {
  const product = await startProduct();
  let statics: Awaited<ReturnType<typeof startStaticServer>> | undefined;
  const empty = { fileBytes: GIB, linkMBps: [], staticMBps: [], ratio: 0 };
  let serviceId: string | undefined;
  const [email = ''] = await createVerifiedAccounts(product.url, product.dataDir, 1);
  const api = await customerApi(product.url, (await signInTokens(product.url, email)).access_token);
  try {
    const bought = await buyWorkspace(api, (await cheapestPlan(product.url)).order, 'bench-share-links', {
      withinMs: 60_000,
    });
    serviceId = bought.id;
    const folder = path.join(
      product.dataDir,
      'nodes',
      'local',
      'workspaces',
      serviceId,
      'data',
      'shares',
      'bench',
    );
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, 'big.bin');
    writeBigFile(file, GIB);
    // The zip's folder: the 1 GB file and 200 small files beside it.
    mkdirSync(path.join(folder, 'small'));
    for (let index = 0; index < 200; index += 1)
      writeFileSync(path.join(folder, 'small', `note-${index}.txt`), `note ${index}\n`.repeat(100));

    const create = (target: string) =>
      api.send('POST', `/shares/${serviceId}/shares`, { type: 'path', target, expiry: '1h' });
    const fileLink = await json<{ url: string }>(await create('shares/bench/big.bin'), 'file link');
    const folderLink = await json<{ url: string }>(await create('shares/bench'), 'folder link');
    const downloadUrl = (link: { url: string }) =>
      `${product.url}/api/v1/public/shares/${link.url.split('/s/')[1]}/download`;

    statics = await startStaticServer(file);
    // Both read the file once first, so both find it in the page cache.
    await curlSpeed(statics.url);
    const linkMBps: number[] = [];
    const staticMBps: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      staticMBps.push((await curlSpeed(statics.url)).MBps);
      const through = await curlSpeed(downloadUrl(fileLink));
      if (through.bytes !== GIB) throw new Error(`the link sent ${through.bytes} bytes, not ${GIB}`);
      linkMBps.push(through.MBps);
    }

    const pid = product.process.pid ?? 0;
    const rssBeforeMiB = rssMiB(pid);
    let rssMaxMiB = rssBeforeMiB;
    const sampler = setInterval(() => {
      rssMaxMiB = Math.max(rssMaxMiB, rssMiB(pid));
    }, 50);
    const zip = await curlSpeed(downloadUrl(folderLink)).finally(() => clearInterval(sampler));
    const rssAfterMiB = rssMiB(pid);

    return {
      fileBytes: GIB,
      linkMBps,
      staticMBps,
      ratio: median(linkMBps) / Math.max(1, median(staticMBps)),
      zip: { bytes: zip.bytes, seconds: zip.seconds, rssBeforeMiB, rssMaxMiB, rssAfterMiB },
    };
  } catch (error) {
    return {
      ...empty,
      skipped: `failed: ${(error as Error).message}`,
      zip: { bytes: 0, seconds: 0, rssBeforeMiB: 0, rssMaxMiB: 0, rssAfterMiB: 0 },
    };
  } finally {
    statics?.stop();
    if (serviceId) await terminateWorkspace(api, serviceId).catch(() => undefined);
    await product.stop();
  }
}

export function printShareLinks(figures: ShareLinkFigures): void {
  console.log(
    '\nShare links (issue 19): a 1 GiB file through a link vs a plain static server, curl, same run',
  );
  if (figures.skipped) {
    console.log(`  skipped: ${figures.skipped}`);
    return;
  }
  console.log(
    `  through a link (agent → API → curl): ${figures.linkMBps.join(', ')} MB/s (median ${median(figures.linkMBps)})`,
  );
  console.log(
    `  plain static server (node:http + createReadStream): ${figures.staticMBps.join(', ')} MB/s (median ${median(figures.staticMBps)})`,
  );
  console.log(`  ratio: ${Math.round(figures.ratio * 100)}% (target ≥ 70%)`);
  const { zip } = figures;
  console.log(
    `  a ~1 GiB folder as a zip: ${(zip.bytes / GIB).toFixed(2)} GiB in ${zip.seconds.toFixed(1)} s; the product's RSS ${zip.rssBeforeMiB} MiB before, ${zip.rssMaxMiB} MiB at most during, ${zip.rssAfterMiB} MiB after (target: flat)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) printShareLinks(await measureShareLinks());
