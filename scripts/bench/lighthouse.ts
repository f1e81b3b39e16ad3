// Lighthouse's performance score of the pages a visitor lands on (/ and /pricing), with both of
// its presets: mobile (the default: a mid-range phone on a slow 4G link, 4× CPU slowdown) and
// desktop (wired connection, no CPU slowdown); throttling is simulated from the real load, so the
// figures do not depend on how fast this machine's loopback is. Debian's Chromium is started by
// chrome-launcher with the journeys' flags; nothing is downloaded. The home page's JavaScript is
// taken from Lighthouse's own network records and measured gzipped (level 9) from the build, as
// web-size.ts does from Playwright's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config } from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../lib/chromium.ts';
import { ROOT } from '../lib/processes.ts';

const PAGES = ['/', '/pricing'];
const PRESETS: Array<{ name: 'mobile' | 'desktop'; config: Config | undefined }> = [
  { name: 'mobile', config: undefined },
  { name: 'desktop', config: desktopConfig },
];

export interface LighthouseRow {
  page: string;
  preset: 'mobile' | 'desktop';
  /** 0-100, Lighthouse's performance category. */
  score: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
}

export interface LighthouseFigures {
  rows: LighthouseRow[];
  home: { files: number; totalGzipBytes: number };
}

interface NetworkRequestItem {
  url: string;
  resourceType?: string;
}

/** Attempts per page and preset: now and then Chromium's trace misses the navigation (NO_NAVSTART). */
const ATTEMPTS = 3;

async function audit(url: string, port: number, config: Config | undefined) {
  let failure = '';
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const result = await lighthouse(
      url,
      { port, logLevel: 'error', output: 'json', onlyCategories: ['performance'] },
      config,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (!result.lhr.runtimeError) return result.lhr;
    failure = result.lhr.runtimeError.message;
  }
  throw new Error(`Lighthouse on ${url}, ${ATTEMPTS} attempts: ${failure}`);
}

export async function measureLighthouse(baseUrl: string): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    logLevel: 'silent',
  });
  try {
    const rows: LighthouseRow[] = [];
    let home: LighthouseFigures['home'] = { files: 0, totalGzipBytes: 0 };
    for (const page of PAGES) {
      for (const preset of PRESETS) {
        const lhr = await audit(`${baseUrl}${page}`, chrome.port, preset.config);
        const value = (audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
        rows.push({
          page,
          preset: preset.name,
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          firstContentfulPaintMs: value('first-contentful-paint'),
          largestContentfulPaintMs: value('largest-contentful-paint'),
          totalBlockingTimeMs: value('total-blocking-time'),
          cumulativeLayoutShift: value('cumulative-layout-shift'),
        });
        if (page === '/' && preset.name === 'desktop') {
          const details = lhr.audits['network-requests']?.details;
          const items = (details && 'items' in details ? details.items : []) as NetworkRequestItem[];
          home = homeScripts(baseUrl, items);
        }
      }
    }
    return { rows, home };
  } finally {
    chrome.kill();
  }
}

/** The scripts of our own origin the page loaded, gzipped from the build. */
function homeScripts(baseUrl: string, items: NetworkRequestItem[]): LighthouseFigures['home'] {
  const origin = new URL(baseUrl).origin;
  const files = new Set(
    items
      .filter((item) => item.resourceType === 'Script' && new URL(item.url).origin === origin)
      .map((item) => new URL(item.url).pathname),
  );
  let totalGzipBytes = 0;
  for (const file of files) {
    totalGzipBytes += gzipSync(readFileSync(path.join(ROOT, 'apps/web/dist', file)), { level: 9 }).length;
  }
  return { files: files.size, totalGzipBytes };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export function printLighthouse(figures: LighthouseFigures): void {
  console.log('\nLighthouse 12, performance (simulated throttling)');
  console.log('| page | preset | score | FCP | LCP | TBT | CLS |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const r of figures.rows) {
    console.log(
      `| ${r.page} | ${r.preset} | ${r.score} | ${seconds(r.firstContentfulPaintMs)} | ${seconds(r.largestContentfulPaintMs)} | ${Math.round(r.totalBlockingTimeMs)} ms | ${r.cumulativeLayoutShift.toFixed(3)} |`,
    );
  }
  console.log(
    `  JavaScript the home page loads (Lighthouse's network records, gzip -9): ${(figures.home.totalGzipBytes / 1024).toFixed(1)} KiB in ${figures.home.files} files`,
  );
}
