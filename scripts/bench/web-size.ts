// The JavaScript a visitor's browser loads for a page: Chromium opens it, every script response
// is recorded, and each file is measured gzipped (level 9) from the build, as a CDN would send it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../lib/chromium.ts';
import { ROOT } from '../lib/processes.ts';

export interface PageScripts {
  page: string;
  files: Array<{ file: string; gzipBytes: number }>;
  totalGzipBytes: number;
}

export async function measurePageScripts(baseUrl: string, pagePath: string): Promise<PageScripts> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.add(new URL(response.url()).pathname);
    });
    await page.goto(`${baseUrl}${pagePath}`, { waitUntil: 'networkidle' });
    const files = [...scripts].map((file) => {
      const content = readFileSync(path.join(ROOT, 'apps/web/dist', file));
      return { file, gzipBytes: gzipSync(content, { level: 9 }).length };
    });
    return { page: pagePath, files, totalGzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0) };
  } finally {
    await browser.close();
  }
}

export function printPageScripts(result: PageScripts) {
  console.log(`\nJavaScript loaded by ${result.page} (gzip -9)`);
  for (const f of result.files) console.log(`  ${f.file}: ${(f.gzipBytes / 1024).toFixed(1)} KiB`);
  console.log(`  total: ${(result.totalGzipBytes / 1024).toFixed(1)} KiB in ${result.files.length} files`);
}
