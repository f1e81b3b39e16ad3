// Build and dev server of the web app. In production the API serves `dist/` itself, so the build
// also writes pre-compressed copies the server can send as they are.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

export default defineConfig({
  plugins: [react(), precompress()],
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
