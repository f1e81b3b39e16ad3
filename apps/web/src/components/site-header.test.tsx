import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { saveConsent } from '../consent/consent.ts';
import { i18n } from '../i18n/i18n.ts';
import { renderApp } from '../test/render-app.tsx';

const PAGES = ['features', 'pricing', 'docs'] as const;

// The routes load their pages on demand: load them once, so no test waits for the first import.
beforeAll(async () => {
  await Promise.all([import('../pages/HomePage.tsx'), import('../pages/public/DocsPage.tsx')]);
});

afterEach(() => {
  Reflect.deleteProperty(Element.prototype, 'scrollIntoView');
});

describe('public header', () => {
  it('links Features, Pricing and Docs in the bar and in the phone menu, which a link closes', async () => {
    saveConsent('necessary');
    const user = userEvent.setup();
    const { router } = renderApp('/faq');
    await screen.findByRole('heading', { level: 1, name: 'Frequently asked questions' });

    for (const place of ['bar', 'menu']) {
      const links = PAGES.map((page) => screen.getByTestId(`header-${place}-${page}`));
      expect(links.map((link) => link.textContent)).toEqual(['Features', 'Pricing', 'Docs']);
      expect(links.map((link) => link.getAttribute('href'))).toEqual(['/#features', '/pricing', '/docs']);
    }

    const menu = screen.getByTestId('header-menu');
    expect(menu.hasAttribute('open')).toBe(false);
    await user.click(within(menu).getByTestId('header-menu-button'));
    expect(menu.hasAttribute('open')).toBe(true);
    await user.click(screen.getByTestId('header-menu-docs'));
    await screen.findByRole('heading', { level: 1, name: 'Documentation' });
    expect(router.state.location.pathname).toBe('/docs');
    expect(screen.getByTestId('header-menu').hasAttribute('open')).toBe(false);
  });

  it('closes the phone menu with Escape and hands focus back to its button', async () => {
    saveConsent('necessary');
    const user = userEvent.setup();
    renderApp('/docs');
    const button = await screen.findByTestId('header-menu-button');
    await user.click(button);
    expect(screen.getByTestId('header-menu').hasAttribute('open')).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('header-menu').hasAttribute('open')).toBe(false);
    expect(document.activeElement).toBe(button);
  });

  it('takes Features to the home page’s solutions', async () => {
    // jsdom has no layout, so no scrollIntoView: recorded, to see which element was shown.
    const shown = vi.fn();
    Element.prototype.scrollIntoView = shown;
    saveConsent('necessary');
    const user = userEvent.setup();
    const { router } = renderApp('/docs');
    await user.click(await screen.findByTestId('header-bar-features'));
    const section = await screen.findByRole('heading', {
      level: 2,
      name: 'One workspace for the way your team works',
    });
    expect(section.closest('section')?.id).toBe('features');
    expect(router.state.location).toMatchObject({ pathname: '/', hash: '#features' });
    await vi.waitFor(() => expect(shown.mock.contexts).toContain(section.closest('section')));
  });

  it('speaks Lithuanian', async () => {
    saveConsent('necessary');
    await i18n.changeLanguage('lt');
    renderApp('/faq');
    const bar = await screen.findByTestId('header-bar-docs');
    expect(bar.closest('nav')?.getAttribute('aria-label')).toBe('Svetainės puslapiai');
    expect(PAGES.map((page) => screen.getByTestId(`header-bar-${page}`).textContent)).toEqual([
      'Galimybės',
      'Kainos',
      'Dokumentacija',
    ]);
    expect(screen.getByTestId('header-menu-button').textContent).toBe('Meniu');
  });
});
