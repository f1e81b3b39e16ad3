// A link the visitor may not open, one page per reason: a title and a sentence, never what was
// shared. Only the passing ones (the storage node, the network, the server) offer to try again.
import { errorText, isMessageCode, type Language } from '@debesis/contract';
import { useTranslation } from 'react-i18next';

const REFUSALS = [
  'share_link_not_found',
  'share_link_revoked',
  'share_link_expired',
  'share_link_over_limit',
  'share_link_ip_refused',
  'share_link_unavailable',
  'node_unreachable',
  'network_error',
] as const;
type Refusal = (typeof REFUSALS)[number];

const isRefusal = (code: string): code is Refusal => (REFUSALS as readonly string[]).includes(code);

/** Final answers: trying again changes nothing until the owner does something. */
const FINAL: readonly string[] = REFUSALS.filter(
  (code) => code !== 'node_unreachable' && code !== 'network_error',
);

export function refusalTitleKey(code: string): `refusal.${Refusal | 'other'}` {
  return isRefusal(code) ? `refusal.${code}` : 'refusal.other';
}

export function ShareRefusal({
  code,
  language,
  retrying,
  onRetry,
}: {
  code: string;
  language: Language;
  retrying: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation('sharePage');
  const { t: tApp } = useTranslation();
  const sentence =
    code === 'network_error'
      ? tApp('clientErrors.network_error')
      : errorText(language, isMessageCode(code) ? code : 'server_error');
  return (
    <section className="share-page__refusal" data-testid={`share-refusal-${code}`}>
      <h1>{t(refusalTitleKey(code))}</h1>
      <p>{sentence}</p>
      {!FINAL.includes(code) && (
        <button
          type="button"
          className="btn btn--primary"
          onClick={onRetry}
          disabled={retrying}
          data-testid="share-retry"
        >
          {retrying ? t('retrying') : t('retry')}
        </button>
      )}
    </section>
  );
}
