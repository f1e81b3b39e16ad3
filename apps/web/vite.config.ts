// Build and dev server of the web app. In production the API serves `dist/` itself, so the build
// also writes pre-compressed copies the server can send as they are, and a copy of index.html for
// each landing page with its first screen prerendered and its code named up front (pagePreloads).
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { prerenderPages } from './prerender-pages.ts';

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
 * Writes `pages/<name>.html` for each landing page: index.html with the page's first screen
 * prerendered in it (src/prerender.tsx) and the scripts it needs, its lazy routes' included.
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
      const closure = (fileName: string, into: Set<string>) => {
        if (into.has(fileName)) return;
        into.add(fileName);
        for (const imported of byName.get(fileName)?.imports ?? []) closure(imported, into);
      };
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) throw new Error('page-preloads: the build has no entry chunk');
      const html = await readFile(join(outDir, 'index.html'), 'utf8');
      const markup = await prerenderPages(root, Object.keys(LANDING_PAGES));
      await mkdir(join(outDir, 'pages'), { recursive: true });
      for (const [path, page] of Object.entries(LANDING_PAGES)) {
        // The entry and everything it imports first, then the page's own routes.
        const scripts = new Set<string>();
        closure(entry.fileName, scripts);
        for (const module of page.modules) {
          const id = resolve(root, module);
          const chunk = chunks.find((c) => c.moduleIds.includes(id));
          if (!chunk) throw new Error(`page-preloads: no chunk holds ${module}`);
          closure(chunk.fileName, scripts);
        }
        const code: AppCode = {
          entry: `/${entry.fileName}`,
          modules: [...scripts].map((file) => `/${file}`),
        };
        const written = await landingPage(html, outDir, {
          reads: page.reads ?? [],
          code,
          markup: markup.get(path) ?? '',
        });
        await writeFile(join(outDir, 'pages', `${page.name}.html`), written);
      }
    },
  };
}

/** What public/preferences.js loads once the prerendered page has painted (`#app-code`). */
interface AppCode {
  entry: string;
  modules: string[];
}

/**
 * A landing page is painted from its HTML alone: the stylesheet and the preferences script are
 * inline, the first screen is in `#root`, and no script is requested before the first paint (on
 * Lighthouse's mobile link every request before it delays it). The app's code is named in a JSON
 * block that public/preferences.js reads once the page has painted. The API sends the plan list
 * (`reads`) with the page: a same-origin fetch with `crossorigin` takes the preloaded answer. The
 * API allows the inlined script by its hash (apps/api/src/http/security.ts).
 */
async function landingPage(
  html: string,
  outDir: string,
  page: { reads: string[]; code: AppCode; markup: string },
): Promise<string> {
  let written = html
    .replace(/ *<script type="module"[^>]*><\/script>\n/, '')
    .replace(/ *<link rel="modulepreload"[^>]*>\n/g, '');
  if (/<script type="module"|modulepreload/.test(written))
    throw new Error('page-preloads: a script is left in the head');
  const styles: string[] = [];
  for (const [tag, href = ''] of html.matchAll(/ *<link rel="stylesheet"[^>]* href="\/([^"]+\.css)">\n/g)) {
    styles.push(`<style>${await readFile(join(outDir, href), 'utf8')}</style>`);
    written = written.replace(tag, '');
  }
  const script = await readFile(join(outDir, PREFERENCES_SCRIPT), 'utf8');
  const tag = `<script src="/${PREFERENCES_SCRIPT}"></script>`;
  const head = [
    ...page.reads.map((url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`),
    ...styles,
  ];
  // `data-prerendered-year`: the footer's copyright year, which preferences.js compares with today's.
  const year = new Date().getFullYear();
  const code = JSON.stringify(page.code).replaceAll('<', '\\u003c');
  return [
    [tag, `<script>${script}</script>`],
    [
      '<html lang="en" data-theme="light">',
      `<html lang="en" data-theme="light" data-prerendered-year="${year}">`,
    ],
    ['  </head>', `${head.map((line) => `    ${line}\n`).join('')}  </head>`],
    ['<div id="root"></div>', `<div id="root" data-prerendered>${page.markup}</div>`],
    ['  </body>', `    <script type="application/json" id="app-code">${code}</script>\n  </body>`],
  ].reduce((text, [search = '', replacement = '']) => {
    if (!text.includes(search)) throw new Error(`page-preloads: index.html has no ${search}`);
    return text.replace(search, () => replacement);
  }, written);
}

/** Runs before the first paint (public/preferences.js); inlined in landing pages. */
const PREFERENCES_SCRIPT = 'preferences.js';

export default defineConfig({
  plugins: [react(), pagePreloads(), precompress()],
  resolve: {
    alias: [
      {
        find: /^use-sync-external-store\/shim$/,
        replacement: resolve(import.meta.dirname, 'src/lib/use-sync-external-store.ts'),
      },
    ],
  },
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
    // Every browser of the es2022 target but Safari < 17 knows modulepreload; there the chunks
    // still load, only without the head start. The polyfill was ~0.5 KiB of the home page's entry.
    modulePreload: { polyfill: false },
    // One stylesheet for the whole app: a landing page inlines it, and no lazy route then loads
    // CSS of its own before it can render (57 KB, 11 KB gzipped, cached for the dashboard).
    cssCodeSplit: false,
    rolldownOptions: {
      output: {
        // Everything the entry imports statically in the entry's one file: every page loads all
        // of it before it runs, and as a split into ten shared chunks (react, the router, i18next
        // ...) it cost ten requests and ~3 KiB gzipped of exports, imports and compression lost
        // at each file's edge. Lazy chunks import what they share with it from the entry.
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
      treeshake: {
        // Importing a contract module only defines constants and zod schemas. Saying so lets the
        // home page take the constants it needs without the schemas, and so without zod (~22 KB
        // gzipped). `"sideEffects": false` in the contract's package.json would say the same.
        moduleSideEffects: (id: string) => !id.includes('/packages/contract/'),
      },
    },
  },
});
