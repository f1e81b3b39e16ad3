// `npm run bench`: the figures each issue names, measured in one run on this machine.
// Servers run as separate processes on 127.0.0.1; the load generator runs here.
// `npm run bench -- lighthouse reconcile` runs only the parts named (see PARTS).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { measure, printLoadTable } from './load.ts';
import { ROOT, startBareFastify, startProduct } from '../lib/processes.ts';
import { measureCalculatePrice } from './quotes.ts';
import { measureServicesOverview, printCeilingRatios } from './services.ts';
import { measureArgon2, measureSignIn } from './sign-in.ts';
import { measurePageScripts, printPageScripts } from './web-size.ts';
import { measureReconcile, printReconcile } from './reconcile.ts';
import { measureActivation, printActivation } from './activation.ts';
import { measureVpn, printVpn } from './vpn.ts';
import { measureLdap, printLdap } from './ldap.ts';
import { measureInvoicePdf, printInvoicePdf } from './invoice-pdf.ts';
import { measureLighthouse, printLighthouse } from './lighthouse.ts';
import { measureBackups, printBackups } from './backups.ts';
import { measureSnapshots, printSnapshots } from './snapshots.ts';
import { measureShareLinks, printShareLinks } from './share-links.ts';
import { measureMonitoring, printMonitoring } from './monitoring.ts';
import { measurePurchases, printPurchases } from './purchases.ts';
import { measureNodeChange, printNodeChange } from './node-change.ts';
import { measureDurability, printDurability } from './durability.ts';

const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 10);
// The product runs on the database DATABASE_URL names (give it an empty one), else on PGlite.
const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite';

const PARTS = [
  'http',
  'sign-in',
  'web-size',
  'lighthouse',
  'reconcile',
  'activation',
  'vpn',
  'ldap',
  'invoice-pdf',
  'backups',
  'snapshots',
  'share-links',
  'monitoring',
  'purchases',
  'node-change',
  'durability',
] as const;
type Part = (typeof PARTS)[number];
const named = process.argv.slice(2);
const unknown = named.filter((name) => !(PARTS as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`unknown bench part ${unknown.join(', ')}; the parts are ${PARTS.join(', ')}`);
  process.exit(2);
}
const runs = (part: Part) => named.length === 0 || named.includes(part);

if (!existsSync(path.join(ROOT, 'apps/web/dist/index.html'))) {
  spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

console.log(
  `Benchmark on ${process.platform} ${process.arch}, Node ${process.version}; autocannon -c 50 -d ${durationSeconds}`,
);

const bare = runs('http') ? await startBareFastify() : undefined;
const needsProduct = runs('http') || runs('sign-in') || runs('web-size') || runs('lighthouse');
const product = needsProduct ? await startProduct() : undefined;
try {
  if (bare && product) {
    const results = [
      await measure('bare Fastify JSON route (yardstick)', `${bare.url}/bare`, { durationSeconds }),
      await measure('GET /api/v1/health (database, queue, nodes)', `${product.url}/api/v1/health`, {
        durationSeconds,
      }),
      await measureCalculatePrice(product, durationSeconds),
      ...(await measureServicesOverview(
        product,
        durationSeconds,
        process.env.DATABASE_URL ? bare : undefined,
      )),
    ];
    printLoadTable(`HTTP (${engine})`, results);
    printCeilingRatios(results);
  }

  if (product && runs('sign-in')) {
    const argon2 = await measureArgon2(5);
    const signIn = await measureSignIn(product, durationSeconds);
    printLoadTable(`Sign-in (${engine})`, [signIn]);
    console.log(
      `  raw argon2id verify on this machine, same run: ${argon2.perSecond}/s with 20 in flight (median ${argon2.medianMs} ms each)`,
    );
  }
  if (product && runs('web-size')) printPageScripts(await measurePageScripts(product.url, '/'));
  if (product && runs('lighthouse')) printLighthouse(await measureLighthouse(product.url));
  if (runs('reconcile')) printReconcile(await measureReconcile());
  if (runs('activation')) printActivation(await measureActivation());
  if (runs('vpn')) printVpn(await measureVpn());
  if (runs('ldap')) printLdap(await measureLdap());
  if (runs('invoice-pdf')) printInvoicePdf(await measureInvoicePdf());
  if (runs('backups')) printBackups(await measureBackups());
  if (runs('snapshots')) printSnapshots(await measureSnapshots());
  if (runs('share-links')) printShareLinks(await measureShareLinks());
  if (runs('monitoring')) printMonitoring(await measureMonitoring());
  if (runs('purchases')) printPurchases(await measurePurchases());
  if (runs('node-change')) printNodeChange(await measureNodeChange());
  if (runs('durability')) printDurability(await measureDurability());
} finally {
  await product?.stop();
  await bare?.stop();
}
