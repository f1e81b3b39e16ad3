// Nothing advertised that does not exist (issue 13, Major 8): the public pages and the sign-in
// page mention a feature only once it is in SHIPPED_FEATURES, in both languages; and the texts of
// the features still to come are kept, so shipping one shows them (checked with every feature on).
import type * as Contract from '@debesis/contract';
import { FEATURES, SHIPPED_FEATURES, type Feature } from '@debesis/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveConsent } from '../../consent/consent.ts';
import { changeLanguage } from '../../i18n/language.ts';
import { renderApp } from '../../test/render-app.tsx';

// `all`: every feature shipped; `without`: these taken back, as if they had not shipped yet.
const features = vi.hoisted(() => ({ all: false, without: [] as readonly string[] }));
vi.mock('@debesis/contract', async (importOriginal) => {
  const contract = await importOriginal<typeof Contract>();
  return {
    ...contract,
    get SHIPPED_FEATURES() {
      const shipped = features.all ? contract.FEATURES : contract.SHIPPED_FEATURES;
      return shipped.filter((feature) => !features.without.includes(feature));
    },
  };
});

afterEach(() => {
  features.all = false;
  features.without = [];
});

/** How each planned feature is named on a page, in English and in Lithuanian. */
const WORDS: Partial<Record<Feature, RegExp>> = {
  vpn: /VPN/,
  nfs: /\bNFS\b/,
  ftp: /\bS?FTPS?\b/,
  ldap: /LDAP/,
  backups: /backup|atsargin/i,
  shareLinks: /share links?|bendrinimo nuorod/i,
  subusers: /subuser|two-factor|papildom\w* naudotoj|dviej\w* veiksni/i,
  linuxPortal: /portal/i,
  monitoring: /monitoring|alerts?\b|stebėsen|įspėjim/i,
};

const PLANNED = FEATURES.filter((feature) => !SHIPPED_FEATURES.includes(feature));

/** The advertising pages, each with what to wait for before reading it. */
const PAGES = [
  { path: '/', ready: 'home-demo' },
  { path: '/faq', ready: 'faq-page' },
  { path: '/docs', ready: 'docs-page' },
  { path: '/about', ready: 'about-page' },
  { path: '/terms', ready: 'terms-page' },
  { path: '/solutions/team-drive', ready: 'solution-page-teamDrive' },
  { path: '/solutions/business-storage', ready: 'solution-page-businessStorage' },
  { path: '/auth/login', ready: 'login-email' },
] as const;

/** Everything a visitor can read on `path`: every view of the home demo, every FAQ answer. */
async function pageText(path: string, ready: string): Promise<string> {
  const view = renderApp(path);
  await screen.findByTestId(ready);
  const texts = [document.body.textContent ?? ''];
  const demo = screen.queryByTestId('home-demo');
  if (demo) {
    for (const tab of within(demo).getAllByRole('tab')) {
      fireEvent.click(tab);
      texts.push(within(demo).getByTestId('home-demo-panel').textContent ?? '');
    }
  }
  view.unmount();
  return texts.join('\n');
}

function mentions(text: string, feature: Feature): string[] {
  const words = WORDS[feature];
  if (!words) return [];
  return text
    .split(/(?<=[.!?:\n])\s+/)
    .filter((sentence) => words.test(sentence))
    .map((sentence) => sentence.trim().slice(0, 120));
}

describe('features that have not shipped', () => {
  it('has words to look for for every planned feature', () => {
    for (const feature of PLANNED) expect(WORDS[feature], feature).toBeInstanceOf(RegExp);
  });

  for (const language of ['en', 'lt'] as const) {
    it(`are not mentioned on the public pages or the sign-in page (${language})`, async () => {
      saveConsent('necessary');
      await changeLanguage(language);
      const found: string[] = [];
      for (const { path, ready } of PAGES) {
        const text = await pageText(path, ready);
        for (const feature of PLANNED) {
          for (const sentence of mentions(text, feature)) found.push(`${path} [${feature}]: ${sentence}`);
        }
      }
      expect(found).toEqual([]);
    });
  }

  it('leave no link to a solution that needs them, and its page is not found', async () => {
    // The one solution that needs a feature needs the VPN, which has shipped: take it back.
    features.without = ['vpn'];
    saveConsent('necessary');
    renderApp('/solutions/secure-access');
    await screen.findByTestId('not-found');
    expect(document.querySelector('a[href="/solutions/secure-access"]')).toBeNull();
  });

  it('keep their texts: with every feature shipped the pages name them again', async () => {
    features.all = true;
    saveConsent('necessary');
    const home = await pageText('/', 'home-demo');
    expect(home).toContain('A private workspace with shared drives, VPN and daily backups');
    expect(home).toContain('over Samba, NFS or SFTP');
    expect(home).toContain('Also over NFS, SFTP and VPN');
    expect(home).toContain('OpenVPN access for your team');
    const faq = await pageText('/faq', 'faq-page');
    expect(faq).toContain('Samba (Windows and macOS sharing), NFS, FTP/SFTP and OpenVPN. Daily backups');
    expect(faq).toContain('Phones and tablets connect through OpenVPN and SFTP apps.');
    const docs = await pageText('/docs', 'docs-page');
    for (const title of ['NFS exports', 'FTP and SFTP', 'VPN (OpenVPN)', 'How backups work'])
      expect(docs).toContain(title);
    expect(docs).toContain('create a subuser');
    const login = await pageText('/auth/login', 'login-email');
    expect(login).toContain('Subuser');
    renderApp('/solutions/secure-access');
    await screen.findByTestId('solution-page-secureAccess');
    expect(document.querySelector('a[href="/solutions/secure-access"]')).not.toBeNull();
  });
});
