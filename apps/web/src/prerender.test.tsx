// The landing pages' prerender as the build runs it (prerender-pages.ts): the first screen in the
// HTML, and nothing left behind that would keep the build's process alive.
import { describe, expect, it } from 'vitest';
import { queryClient } from './app/query-client.ts';
import { renderLandingPage } from './prerender.tsx';

describe('renderLandingPage', () => {
  it('renders the home page and the plan picker with their headings and the cookie question', async () => {
    const home = await renderLandingPage('/');
    expect(home).toContain('Secure storage and network access for your team');
    expect(home).toContain('data-testid="cookie-consent"');
    const pricing = await renderLandingPage('/pricing');
    expect(pricing).toContain('Choose your plan');
    expect(pricing).toContain('data-testid="plan-list-placeholder"');
  });

  it('leaves no query behind (each kept a ten-minute timer: the build hung for ten minutes)', async () => {
    await renderLandingPage('/pricing');
    expect(queryClient.getQueryCache().getAll()).toEqual([]);
  });
});
