// The public page of a share link, /s/{token} (issue 19): what anyone with the link may see and
// download, without an account. The place inside a shared folder is the URL's `?path=`, so back
// and forward walk the folders. Each answer of the API is its own view: the shared file or
// folder, the password form, or a refusal page that says nothing of what was shared.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { useLanguage } from '../../i18n/language.ts';
import { fetchShare, type ShareView } from './share-api.ts';
import { ShareRefusal, refusalTitleKey } from './ShareRefusal.tsx';
import { SharePasswordForm } from './SharePasswordForm.tsx';
import { SharedFile } from './SharedFile.tsx';
import { SharedFolder } from './SharedFolder.tsx';
import './share-page.css';

export function SharePage() {
  const { t } = useTranslation('sharePage');
  const { language } = useLanguage();
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const path = search.get('path') ?? '';
  // Asked again on every visit (nothing kept: the owner may revoke the link meanwhile). While
  // another folder loads, the one before stays on screen.
  const query = useQuery({
    queryKey: ['public-share', token, path],
    queryFn: ({ signal }) => fetchShare(token, path, language, signal),
    placeholderData: (previous) => previous,
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const view: ShareView | undefined =
    query.data ?? (query.isError ? { state: 'refused', code: 'server_error' } : undefined);
  const retry = () => void query.refetch();

  useDocumentTitle(
    view?.state === 'shown'
      ? view.share.name
      : view?.state === 'password'
        ? t('password.title')
        : view?.state === 'refused'
          ? t(refusalTitleKey(view.code))
          : t('title'),
  );

  return (
    <article
      // A password form or a refusal is a few lines: a narrower card reads better.
      className={view?.state === 'shown' ? 'share-page' : 'share-page share-page--narrow'}
      data-testid="share-page"
      aria-busy={query.isFetching}
    >
      {/* A link is for the people it was given to, never for a search engine (React puts it in <head>). */}
      <meta name="robots" content="noindex, nofollow" />
      {view === undefined && <p className="text-muted">{t('loading')}</p>}
      {view?.state === 'password' && (
        <SharePasswordForm
          token={token}
          language={language}
          onUnlocked={async () => (await query.refetch()).data}
        />
      )}
      {view?.state === 'refused' && (
        <ShareRefusal code={view.code} language={language} retrying={query.isFetching} onRetry={retry} />
      )}
      {view?.state === 'shown' &&
        (view.share.type === 'folder' ? (
          <SharedFolder token={token} share={view.share} language={language} />
        ) : (
          <SharedFile token={token} share={view.share} language={language} />
        ))}
    </article>
  );
}
