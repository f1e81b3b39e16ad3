// The public page of a share link, /s/{token} (issue 19; the API: /api/v1/public/shares/{token}).
// No sign-in and none of the app's session handling: a visitor's 401 is the link's password, not
// a session to refresh, so the page asks with plain fetch (the grant is an HttpOnly cookie the
// API scopes to this link's path, sent by the browser by itself). A file shows its size, dates
// and a Download button; a folder its entries, folders to open (the place inside it is the URL's
// `?path=`, so back and forward work) and a zip of where the visitor is. Downloads are plain
// links, streamed by the browser to disk (and resumed by it). Each refusal is its own page that
// says nothing of what was shared.
import {
  PUBLIC_SHARES_API_PATH,
  errorText,
  isMessageCode,
  publicShareSchema,
  type Language,
  type PublicShare,
  type StorageEntry,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { BusyButton } from '../../components/form/BusyButton.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { formatBytes } from '../../lib/format-bytes.ts';
import { formatDateTime } from '../activity/relative-time.ts';
import { PathBreadcrumbs } from '../services/kit/PathBreadcrumbs.tsx';
import './share-page.css';

type View =
  | { state: 'loading' }
  | { state: 'shown'; share: PublicShare }
  | { state: 'password' }
  | { state: 'refused'; code: string };

/** Shown in place by the API (images, audio, video, PDF, plain text); anything else downloads. */
const VIEWABLE = /\.(png|jpe?g|gif|webp|avif|mp4|webm|ogv|mov|mp3|ogg|oga|wav|flac|m4a|pdf|txt)$/i;
const REFUSALS = [
  'share_link_not_found',
  'share_link_revoked',
  'share_link_expired',
  'share_link_over_limit',
  'share_link_ip_refused',
  'share_link_unavailable',
  'node_unreachable',
] as const;
type Refusal = (typeof REFUSALS)[number];
const isRefusal = (code: string): code is Refusal => (REFUSALS as readonly string[]).includes(code);

const detailOf = async (response: Response): Promise<{ detail: string; retry_after?: number }> => {
  try {
    const body = (await response.json()) as { detail?: unknown; retry_after?: unknown };
    return {
      detail: typeof body.detail === 'string' ? body.detail : 'server_error',
      ...(typeof body.retry_after === 'number' ? { retry_after: body.retry_after } : {}),
    };
  } catch {
    return { detail: 'server_error' };
  }
};

export function SharePage() {
  const { t, i18n } = useTranslation('sharePage');
  const language: Language = i18n.language === 'lt' ? 'lt' : 'en';
  const { token = '' } = useParams();
  const [search, setSearch] = useSearchParams();
  const path = search.get('path') ?? '';
  const base = `${PUBLIC_SHARES_API_PATH}${encodeURIComponent(token)}`;
  const downloadUrl = (sub: string, inline = false) =>
    `${base}/download?path=${encodeURIComponent(sub)}${inline ? '&inline=1' : ''}`;
  // Asked each time the page or its place changes (nothing cached: a link may be revoked meanwhile).
  const shown = useQuery({
    queryKey: ['public-share', token, path],
    queryFn: async ({ signal }): Promise<View> => {
      let response: Response;
      try {
        response = await fetch(`${base}?path=${encodeURIComponent(path)}`, {
          credentials: 'same-origin',
          headers: { accept: 'application/json', 'accept-language': language },
          signal,
        });
      } catch {
        return { state: 'refused', code: 'node_unreachable' };
      }
      if (response.ok) return { state: 'shown', share: publicShareSchema.parse(await response.json()) };
      const { detail } = await detailOf(response);
      return detail === 'share_link_password_required'
        ? { state: 'password' }
        : { state: 'refused', code: detail };
    },
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const view: View = shown.data ?? { state: 'loading' };
  const again = () => void shown.refetch();
  useDocumentTitle(view.state === 'shown' ? view.share.name : t('title'));

  const open = (sub: string) => setSearch(sub ? { path: sub } : {});

  return (
    <article className="share-page card" data-testid="share-page">
      {view.state === 'loading' && <p className="text-muted">{t('loading')}</p>}
      {view.state === 'password' && <PasswordForm base={base} language={language} onOpen={() => again()} />}
      {view.state === 'refused' && <Refused code={view.code} language={language} onRetry={() => again()} />}
      {view.state === 'shown' && (
        <Shared share={view.share} language={language} downloadUrl={downloadUrl} open={open} />
      )}
      <p className="share-page__footer text-muted">{t('poweredBy')}</p>
    </article>
  );
}

function Refused({ code, language, onRetry }: { code: string; language: Language; onRetry: () => void }) {
  const { t } = useTranslation('sharePage');
  const known = isRefusal(code);
  return (
    <section data-testid={`share-refusal-${code}`} role="alert">
      <h1>{known ? t(`refusal.${code}`) : t('refusal.other')}</h1>
      <p>{isMessageCode(code) ? errorText(language, code) : errorText(language, 'server_error')}</p>
      {(code === 'node_unreachable' || !known) && (
        <button type="button" className="btn btn--primary" onClick={onRetry} data-testid="share-retry">
          {t('retry')}
        </button>
      )}
    </section>
  );
}

function PasswordForm({ base, language, onOpen }: { base: string; language: Language; onOpen: () => void }) {
  const { t } = useTranslation('sharePage');
  const [password, setPassword] = useState('');
  const [shown, setShown] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!password) return;
    setBusy(true);
    setError(null);
    try {
      const response = await fetch(`${base}/unlock`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'accept-language': language,
        },
        body: JSON.stringify({ password }),
      });
      if (response.ok) {
        onOpen();
        return;
      }
      const { detail, retry_after } = await detailOf(response);
      if (detail === 'too_many_attempts') setError(t('password.wait', { seconds: retry_after ?? 60 }));
      else if (detail === 'share_link_wrong_password')
        setError(errorText(language, 'share_link_wrong_password'));
      else onOpen();
    } catch {
      setError(errorText(language, 'node_unreachable'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form className="form share-page__password" noValidate onSubmit={(event) => void submit(event)}>
      <h1>{t('password.title')}</h1>
      <p>{t('password.lead')}</p>
      {error && (
        <p className="field__error" role="alert" data-testid="share-password-error">
          {error}
        </p>
      )}
      <div className="field">
        <label htmlFor="share-password" className="field__label">
          {t('password.label')}
        </label>
        <input
          id="share-password"
          className="input"
          type={shown ? 'text' : 'password'}
          autoComplete="current-password"
          // The page is this form: the visitor came to type here.
          autoFocus
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="share-password-input"
        />
      </div>
      <div className="button-row">
        <button type="button" className="btn btn--ghost" onClick={() => setShown((now) => !now)}>
          {shown ? t('password.hide') : t('password.show')}
        </button>
        <BusyButton
          busy={busy}
          label={t('password.submit')}
          busyLabel={t('password.checking')}
          testId="share-password-submit"
        />
      </div>
    </form>
  );
}

function Shared({
  share,
  language,
  downloadUrl,
  open,
}: {
  share: PublicShare;
  language: Language;
  downloadUrl: (sub: string, inline?: boolean) => string;
  open: (sub: string) => void;
}) {
  const { t } = useTranslation('sharePage');
  const size = formatBytes(share.size, language);
  const names = share.path ? share.path.split('/') : [];
  const inside = (name: string) => (share.path ? `${share.path}/${name}` : name);
  const fileName = share.type === 'file' ? (names.at(-1) ?? share.name) : share.name;
  return (
    <section>
      <p className="text-muted">{share.item_type === 'folder' ? t('folder') : t('file')}</p>
      <h1 data-testid="share-name">{fileName}</h1>
      <dl className="share-page__facts">
        <dt>{t('size')}</dt>
        <dd data-testid="share-size">{share.size_complete ? size : t('sizeAtLeast', { size })}</dd>
        <dt>{t('modified')}</dt>
        <dd>{share.modified_at ? formatDateTime(new Date(share.modified_at), language) : '—'}</dd>
        <dt>{t('expires')}</dt>
        <dd data-testid="share-expiry">
          {share.expires_at ? formatDateTime(new Date(share.expires_at), language) : t('neverExpires')}
        </dd>
        {share.downloads_left !== null && (
          <>
            <dt>{t('downloadsLeft')}</dt>
            <dd data-testid="share-downloads-left">{share.downloads_left}</dd>
          </>
        )}
      </dl>
      {share.item_type === 'folder' && (
        <PathBreadcrumbs
          label={t('root')}
          root={share.name}
          names={names}
          onOpen={(parts) => open(parts.join('/'))}
          testId="share-breadcrumb"
        />
      )}
      <div className="button-row">
        <a className="btn btn--primary" href={downloadUrl(share.path)} download data-testid="share-download">
          {share.type === 'folder' ? t('downloadZip') : t('download')}
        </a>
        {share.type === 'file' && VIEWABLE.test(fileName) && (
          <a
            className="btn btn--secondary"
            href={downloadUrl(share.path, true)}
            target="_blank"
            rel="noopener"
            data-testid="share-view"
          >
            {t('view')}
          </a>
        )}
      </div>
      {share.type === 'folder' && (
        <Entries share={share} language={language} inside={inside} downloadUrl={downloadUrl} open={open} />
      )}
    </section>
  );
}

function Entries({
  share,
  language,
  inside,
  downloadUrl,
  open,
}: {
  share: PublicShare;
  language: Language;
  inside: (name: string) => string;
  downloadUrl: (sub: string) => string;
  open: (sub: string) => void;
}) {
  const { t } = useTranslation('sharePage');
  if (share.entries.length === 0) return <p className="text-muted">{t('empty')}</p>;
  const row = (entry: StorageEntry) => (
    <tr key={entry.name} data-testid={`share-entry-${entry.name}`}>
      <td>
        {entry.type === 'folder' ? (
          <button type="button" className="btn btn--ghost" onClick={() => open(inside(entry.name))}>
            📁 {entry.name}
          </button>
        ) : (
          <a
            href={downloadUrl(inside(entry.name))}
            download
            data-testid={`share-entry-download-${entry.name}`}
          >
            {entry.name}
          </a>
        )}
      </td>
      <td className="numeric">{entry.type === 'file' ? formatBytes(entry.size, language) : ''}</td>
      <td>{formatDateTime(new Date(entry.modified_at), language)}</td>
    </tr>
  );
  return (
    <>
      <div className="share-page__table">
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              <th scope="col" className="numeric">
                {t('size')}
              </th>
              <th scope="col">{t('modified')}</th>
            </tr>
          </thead>
          <tbody>{share.entries.map(row)}</tbody>
        </table>
      </div>
      {share.truncated && <p className="text-muted">{t('truncated', { count: share.entries.length })}</p>}
    </>
  );
}
