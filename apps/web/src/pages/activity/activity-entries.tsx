// The parts the account's activity page and a service's Activity tab share: an entry's action in
// the reader's language coloured by its tone, its details as a sentence (activity-sentence.ts;
// only an action this version does not know lists its details as recorded), the service by name,
// and the table of entries, which on a phone becomes a list of cards (activity.css).
import type { ActivityEntry, ActivityTone } from '@debesis/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { activityEn, type ActivityMessages } from '../../i18n/activity.en.ts';
import '../../i18n/activity-messages.ts';
import { money } from '../plans/format.ts';
import { useProducts } from '../plans/quote.ts';
import { useNow } from '../services/kit/RelativeTime.tsx';
import { serviceDetailPath } from '../services/service-context.ts';
import { actionKey } from './activity-actions.ts';
import { activitySentence, type SentenceContext } from './activity-sentence.ts';
import { formatDateTime, formatRelativeTime } from './relative-time.ts';
import './activity.css';

/** The badge colour of each tone (spec §3: success, warning, error, info). */
export const TONE_CLASS: Record<ActivityTone, string> = {
  success: 'badge--success',
  warning: 'badge--warning',
  error: 'badge--danger',
  info: 'badge--info',
};

const DATE_DETAILS = new Set(['valid_until', 'terminates_at']);

/** The clock an entry's relative time is read against, moved on every half minute. */
export const useActivityNow = (): Date => useNow(30_000);

/** A page of entries as the API answers it: where it starts, how long a page is, how many in all. */
interface EntriesPage {
  skip: number;
  limit: number;
  total: number;
}

/** The page's number and how many pages there are. */
export function pageOf(list: EntriesPage): { page: number; pages: number } {
  return {
    page: Math.floor(list.skip / list.limit) + 1,
    pages: Math.max(1, Math.ceil(list.total / list.limit)),
  };
}

/**
 * Previous, "page x of y" and Next under a list of entries, read from the page on screen (the
 * previous one stays while the next loads), so the numbers always describe the entries shown. Test
 * ids `<testId>-previous`, `-page` and `-next` when given; `children` follow Next (a page size).
 */
export function EntriesPager({
  list,
  onPage,
  testId,
  children,
}: {
  list: EntriesPage;
  onPage: (page: number) => void;
  testId?: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation('activity');
  const { page, pages } = pageOf(list);
  const part = (name: string) => testId && `${testId}-${name}`;
  return (
    <nav className="activity-pagination" aria-label={t('pagination.label')}>
      <button
        type="button"
        className="btn btn--ghost"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        data-testid={part('previous')}
      >
        {t('pagination.previous')}
      </button>
      <span aria-live="polite" data-testid={part('page')}>
        {t('pagination.page', { page, pages, total: list.total })}
      </span>
      <button
        type="button"
        className="btn btn--ghost"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
        data-testid={part('next')}
      >
        {t('pagination.next')}
      </button>
      {children}
    </nav>
  );
}

/**
 * What the sentences need: texts, language and the catalogue's plan names. Null until the catalogue
 * has answered, so a sentence never shows a plan's id ("mini") for a moment and then its name; if
 * the catalogue cannot be read, the id is the name.
 */
export function useSentenceContext(): SentenceContext | null {
  const { t, i18n } = useTranslation('activity');
  const products = useProducts();
  if (products.isPending) return null;
  const names = new Map((products.data ?? []).map((product) => [product.id, product.name]));
  return { t, language: i18n.language, planName: (id) => names.get(id) ?? id };
}

/** What a list shows while the plan names it needs are still on their way. */
export function EntriesLoading() {
  const { t } = useTranslation('activity');
  return (
    <p className="text-muted" role="status">
      {t('page.loading')}
    </p>
  );
}

export function ActionText({ action, tone }: { action: string; tone: ActivityTone }) {
  const { t } = useTranslation('activity');
  const key = actionKey(action);
  return (
    <span className={`badge ${TONE_CLASS[tone]} activity-action`} data-tone={tone}>
      <span className="visually-hidden">{t(`tones.${tone}`)}: </span>
      {key ? t(`actions.${key}`) : action}
    </span>
  );
}

function DetailValue({ name, value }: { name: string; value: unknown }) {
  const { t, i18n } = useTranslation('activity');
  if (value === null || value === undefined || value === '') return <>{t('entry.noDetails')}</>;
  if (typeof value === 'boolean') return <>{value ? t('entry.yes') : t('entry.no')}</>;
  if (name === 'amount' && typeof value === 'number') return <>{money(value, i18n.language)}</>;
  if (DATE_DETAILS.has(name) && typeof value === 'string' && !Number.isNaN(Date.parse(value))) {
    return <>{formatDateTime(new Date(value), i18n.language)}</>;
  }
  if (typeof value === 'string' || typeof value === 'number') return <>{String(value)}</>;
  if (Array.isArray(value))
    return <>{value.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))).join(', ')}</>;
  return <>{JSON.stringify(value)}</>;
}

/** Whether a details entry has a name of its own in the texts. */
function isDetailName(name: string): name is keyof ActivityMessages['details'] {
  return Object.hasOwn(activityEn.details, name);
}

/** The details of an action this version does not know, as recorded. */
function RawDetails({ details }: { details: Record<string, unknown> }) {
  const { t } = useTranslation('activity');
  return (
    <dl className="activity-details">
      {Object.entries(details).map(([name, value]) => (
        <div key={name}>
          <dt>{isDetailName(name) ? t(`details.${name}`) : name}</dt>
          <dd>
            <DetailValue name={name} value={value} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** The details of an entry or a management line: its sentence, or as recorded when unknown. */
export function EntryDetails({
  action,
  details,
  context,
}: {
  action: string;
  details: Record<string, unknown>;
  context: SentenceContext;
}) {
  const sentence = activitySentence(action, details, context);
  if (sentence === undefined) {
    return Object.keys(details).length > 0 ? <RawDetails details={details} /> : null;
  }
  return sentence ? <p className="activity-sentence">{sentence}</p> : null;
}

function ServiceLink({ entry }: { entry: ActivityEntry }) {
  const { t } = useTranslation('activity');
  if (!entry.service_id) return null;
  return (
    <p className="activity-service">
      <Link to={serviceDetailPath(entry.service_id)} title={entry.service_id}>
        {entry.service_name
          ? t('entry.serviceLink', { name: entry.service_name })
          : t('entry.service', { id: entry.service_id.slice(0, 8) })}
      </Link>
    </p>
  );
}

function EntryRow({
  entry,
  now,
  context,
  withService,
}: {
  entry: ActivityEntry;
  now: Date;
  context: SentenceContext;
  withService: boolean;
}) {
  const { t, i18n } = useTranslation('activity');
  const at = new Date(entry.created_at);
  const sentence = activitySentence(entry.action, entry.details, context);
  const service = withService && entry.service_id !== null;
  const empty =
    !service && (sentence === null || (sentence === undefined && !Object.keys(entry.details).length));
  return (
    <tr data-testid={`activity-entry-${entry.id}`} data-action={entry.action}>
      <th scope="row">
        <ActionText action={entry.action} tone={entry.tone} />
      </th>
      <td className="activity-ip" data-label={t('columns.ip')}>
        {entry.ip ?? t('entry.noIp')}
      </td>
      <td data-label={t('columns.date')}>
        <time dateTime={entry.created_at} title={formatDateTime(at, i18n.language)}>
          {formatRelativeTime(at, { now, language: i18n.language, justNow: t('time.justNow') })}
        </time>
      </td>
      <td className="activity-details-cell" data-empty={empty || undefined}>
        {withService && <ServiceLink entry={entry} />}
        <EntryDetails action={entry.action} details={entry.details} context={context} />
        {empty && t('entry.noDetails')}
      </td>
    </tr>
  );
}

/** A page of entries: a table on a wide screen, a list of cards on a phone. */
export function EntriesTable({
  items,
  testId,
  busy,
  withService = true,
}: {
  items: readonly ActivityEntry[];
  testId: string;
  busy: boolean;
  /** Off on a service's own tab, where every entry is of that service. */
  withService?: boolean;
}) {
  const { t } = useTranslation('activity');
  const now = useActivityNow();
  const context = useSentenceContext();
  if (!context) return <EntriesLoading />;
  return (
    <div className="activity-table__scroll">
      <table className="table table--cards activity-table" data-testid={testId} aria-busy={busy}>
        <thead>
          <tr>
            <th scope="col">{t('columns.action')}</th>
            <th scope="col">{t('columns.ip')}</th>
            <th scope="col">{t('columns.date')}</th>
            <th scope="col">{t('columns.details')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((entry) => (
            <EntryRow key={entry.id} entry={entry} now={now} context={context} withService={withService} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
