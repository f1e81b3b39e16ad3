// Renders the landing pages' first screen at build time (src/prerender.tsx), through a Vite
// server in middleware mode that loads the app's modules for Node: the same sources, CSS imports
// and all, without a second build. Used by vite.config.ts (pagePreloads).
import { createServer } from 'vite';

interface PrerenderModule {
  renderLandingPage: (path: string) => Promise<string>;
}

/** The markup of each path, by path. */
export async function prerenderPages(root: string, paths: string[]): Promise<Map<string, string>> {
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    const { renderLandingPage } = (await server.ssrLoadModule('/src/prerender.tsx')) as PrerenderModule;
    const pages = new Map<string, string>();
    for (const path of paths) pages.set(path, await renderLandingPage(path));
    return pages;
  } finally {
    await server.close();
  }
}
