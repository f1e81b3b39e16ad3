// Build and dev server of the web app. In production the API serves `dist/` itself, so the build
// also writes pre-compressed copies the server can send as they are, and a copy of index.html for
// each landing page that names that page's code up front (pagePreloads).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const API_ORIGIN = 'http://127.0.0.1:8080';
const COMPRESSIBLE = /\.(js|mjs|css|html|svg)$/;

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/** Writes `name.gz` and `name.br` next to every text asset, once the whole build is on disk. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'debesis:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await listFiles(outDir)).filter((file) => COMPRESSIBLE.test(file));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          const [gz, br] = await Promise.all([
            gzipAsync(content, { level: 9 }),
            brotliAsync(content, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: 11,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
          ]);
          await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
        }),
      );
    },
  };
}

/**
 * The pages a visitor lands on, by path, and the lazy route modules each one renders (its route
 * scopes, then the page). The API sends `dist/pages/<name>.html` for such a path (see
 * apps/api/src/http/web-app.ts).
 */
const LANDING_PAGES: Record<string, { name: string; modules: string[]; reads?: string[] }> = {
  '/': { name: 'index', modules: ['src/pages/HomePage.tsx'] },
  '/pricing': {
    name: 'pricing',
    modules: ['src/app/QueryScope.tsx', 'src/pages/plans/PlansPage.tsx'],
    // The plan cards' list (plan-list.ts PLAN_LIST_PATH), public and the same in every language.
    reads: ['/api/v1/products/'],
  },
};

/**
 * Writes `pages/<name>.html` for each landing page: index.html plus a `modulepreload` for every
 * script its lazy routes need and a stylesheet link for their CSS. Without them the browser learns
 * of the page's code only once the app's entry has downloaded and run, one round trip later.
 */
function pagePreloads(): Plugin {
  let outDir = 'dist';
  let root = '';
  return {
    name: 'debesis:page-preloads',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      root = config.root;
    },
    async writeBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      // What index.html already loads: the entry and everything it imports.
      const loaded = new Set<string>();
      const closure = (fileName: string, into: Set<string>) => {
        if (into.has(fileName) || loaded.has(fileName)) return;
        into.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) closure(imported, into);
      };
      for (const chunk of chunks.filter((c) => c.isEntry)) closure(chunk.fileName, loaded);
      const html = await readFile(join(outDir, 'index.html'), 'utf8');
      await mkdir(join(outDir, 'pages'), { recursive: true });
      for (const page of Object.values(LANDING_PAGES)) {
        const scripts = new Set<string>();
        for (const module of page.modules) {
          const id = resolve(root, module);
          const chunk = chunks.find((c) => c.moduleIds.includes(id));
          if (!chunk) throw new Error(`page-preloads: no chunk holds ${module}`);
          closure(chunk.fileName, scripts);
        }
        // The API reads the page renders first, fetched with the page instead of after its code
        // has run: `crossorigin` makes the preload match the app's same-origin fetch, which
        // then takes the preloaded answer (Lighthouse's mobile link: one round trip less).
        const links = [
          ...(page.reads ?? []).map((url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`),
          ...[...scripts].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
        ];
        await writeFile(join(outDir, 'pages', `${page.name}.html`), await landingPage(html, outDir, links));
      }
    },
  };
}

/**
 * A landing page carries its stylesheet and the preferences script in itself: each was a request
 * the first paint waited for (on Lighthouse's mobile link, ~0.3 s for /pricing). The CSS is one
 * file (cssCodeSplit off), so no lazy route asks for a stylesheet later; it goes last in the head,
 * after the script links, so the browser asks for the scripts before it reads 57 KB of CSS. The
 * API allows the inlined script by its hash (apps/api/src/http/security.ts).
 */
async function landingPage(html: string, outDir: string, links: string[]): Promise<string> {
  let page = html;
  const styles: string[] = [];
  for (const [tag, href = ''] of html.matchAll(/ *<link rel="stylesheet"[^>]* href="\/([^"]+\.css)">\n/g)) {
    styles.push(`<style>${await readFile(join(outDir, href), 'utf8')}</style>`);
    page = page.replace(tag, '');
  }
  const script = await readFile(join(outDir, PREFERENCES_SCRIPT), 'utf8');
  const tag = `<script src="/${PREFERENCES_SCRIPT}"></script>`;
  if (!page.includes(tag)) throw new Error(`page-preloads: index.html has no ${tag}`);
  return page
    .replace(tag, () => `<script>${script}</script>`)
    .replace('  </head>', () => `${[...links, ...styles].map((line) => `    ${line}\n`).join('')}  </head>`);
}

/** Runs before the first paint (public/preferences.js); inlined in landing pages. */
const PREFERENCES_SCRIPT = 'preferences.js';

export default defineConfig({
  plugins: [react(), pagePreloads(), precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_ORIGIN, changeOrigin: false },
      '/payments-sandbox': { target: API_ORIGIN, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/api': { target: API_ORIGIN, changeOrigin: false },
      '/payments-sandbox': { target: API_ORIGIN, changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // One stylesheet for the whole app: a landing page inlines it, and no lazy route then loads
    // CSS of its own before it can render (57 KB, 11 KB gzipped, cached for the dashboard).
    cssCodeSplit: false,
    rolldownOptions: {
      treeshake: {
        // Importing a contract module only defines constants and zod schemas. Saying so lets the
        // home page take the constants it needs without the schemas, and so without zod (~22 KB
        // gzipped). `"sideEffects": false` in the contract's package.json would say the same.
        moduleSideEffects: (id: string) => !id.includes('/packages/contract/'),
      },
    },
  },
});
