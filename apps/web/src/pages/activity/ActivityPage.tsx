// The activity page (spec §2 "Activity: management history and login history"; §3 "Activity
// entry"; §8 the load failure; §9 default limit 50 and relative times): two histories from
// GET /api/v1/activity/filtered (kind management or login), each entry with its action in the
// reader's language coloured by its tone, the IP address, when (relative, the full date on hover)
// and its details; filters by tone and dates (blank ones are not sent) and pages.
import {
  ACTIVITY_DEFAULT_LIMIT,
  ACTIVITY_KINDS,
  ACTIVITY_TONES,
  type ActivityEntry,
  type ActivityKind,
  type ActivityTone,
} from '@debesis/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert, InputField, SelectField } from '../../components/form/fields.tsx';
import { SegmentedChoice } from '../../components/SegmentedChoice.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { activityEn, type ActivityMessages } from '../../i18n/activity.en.ts';
import '../../i18n/activity-messages.ts';
import { money } from '../plans/format.ts';
import { serviceDetailPath } from '../services/service-context.ts';
import { actionKey } from './activity-actions.ts';
import { NO_ACTIVITY_FILTERS, useActivity, type ActivityFilterValues } from './activity-api.ts';
import { formatDateTime, formatRelativeTime } from './relative-time.ts';
import './activity.css';

export const PAGE_SIZES = [10, 25, ACTIVITY_DEFAULT_LIMIT, 100] as const;

/** The badge colour of each tone (spec §3: success, warning, error, info). */
export const TONE_CLASS: Record<ActivityTone, string> = {
  success: 'badge--success',
  warning: 'badge--warning',
  error: 'badge--danger',
  info: 'badge--info',
};

const DATE_DETAILS = new Set(['valid_until', 'terminates_at']);

/** The clock relative times are read against, moved on every half minute. */
function useNow(everyMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function ActionText({ entry }: { entry: ActivityEntry }) {
  const { t } = useTranslation('activity');
  const key = actionKey(entry.action);
  return (
    <span className={`badge ${TONE_CLASS[entry.tone]} activity-action`} data-tone={entry.tone}>
      <span className="visually-hidden">{t(`tones.${entry.tone}`)}: </span>
      {key ? t(`actions.${key}`) : entry.action}
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

function Details({ entry }: { entry: ActivityEntry }) {
  const { t } = useTranslation('activity');
  const details = Object.entries(entry.details);
  if (details.length === 0 && !entry.service_id) return <>{t('entry.noDetails')}</>;
  return (
    <dl className="activity-details">
      {entry.service_id && (
        <div>
          <dt className="visually-hidden">{t('details.service')}</dt>
          <dd>
            <Link to={serviceDetailPath(entry.service_id)} title={entry.service_id}>
              {t('entry.service', { id: entry.service_id.slice(0, 8) })}
            </Link>
          </dd>
        </div>
      )}
      {details.map(([name, value]) => (
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

function EntryRow({ entry, now }: { entry: ActivityEntry; now: Date }) {
  const { t, i18n } = useTranslation('activity');
  const at = new Date(entry.created_at);
  return (
    <tr data-testid={`activity-entry-${entry.id}`} data-action={entry.action}>
      <th scope="row">
        <ActionText entry={entry} />
      </th>
      <td className="activity-ip">{entry.ip ?? t('entry.noIp')}</td>
      <td>
        <time dateTime={entry.created_at} title={formatDateTime(at, i18n.language)}>
          {formatRelativeTime(at, { now, language: i18n.language, justNow: t('time.justNow') })}
        </time>
      </td>
      <td>
        <Details entry={entry} />
      </td>
    </tr>
  );
}

function Filters({
  applied,
  onApply,
}: {
  applied: ActivityFilterValues;
  onApply: (next: ActivityFilterValues) => void;
}) {
  const { t } = useTranslation('activity');
  const [draft, setDraft] = useState(applied);
  const invalidRange = draft.start_date !== '' && draft.end_date !== '' && draft.end_date < draft.start_date;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!invalidRange) onApply(draft);
  };
  return (
    <form
      className="activity-filters"
      aria-label={t('filters.title')}
      onSubmit={submit}
      data-testid="activity-filters"
    >
      <SelectField
        id="activity-filter-tone"
        label={t('filters.tone')}
        value={draft.tone}
        onChange={(event) =>
          setDraft({ ...draft, tone: ACTIVITY_TONES.find((tone) => tone === event.target.value) ?? '' })
        }
      >
        <option value="">{t('filters.anyTone')}</option>
        {ACTIVITY_TONES.map((tone) => (
          <option key={tone} value={tone}>
            {t(`tones.${tone}`)}
          </option>
        ))}
      </SelectField>
      <InputField
        id="activity-filter-from"
        type="date"
        label={t('filters.from')}
        value={draft.start_date}
        onChange={(event) => setDraft({ ...draft, start_date: event.target.value })}
      />
      <InputField
        id="activity-filter-to"
        type="date"
        label={t('filters.to')}
        value={draft.end_date}
        error={invalidRange ? t('filters.invalidRange') : undefined}
        onChange={(event) => setDraft({ ...draft, end_date: event.target.value })}
      />
      <div className="button-row activity-filters__buttons">
        <button type="submit" className="btn btn--secondary" data-testid="activity-filters-apply">
          {t('filters.apply')}
        </button>
        <button
          type="button"
          className="btn btn--ghost"
          data-testid="activity-filters-clear"
          onClick={() => {
            setDraft(NO_ACTIVITY_FILTERS);
            onApply(NO_ACTIVITY_FILTERS);
          }}
        >
          {t('filters.clear')}
        </button>
      </div>
    </form>
  );
}

export function ActivityPage() {
  const { t } = useTranslation('activity');
  useDocumentTitle(t('page.title'));
  const [kind, setKind] = useState<ActivityKind>('management');
  const [filters, setFilters] = useState<ActivityFilterValues>(NO_ACTIVITY_FILTERS);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(ACTIVITY_DEFAULT_LIMIT);
  const activity = useActivity(kind, filters, page, limit);
  const now = useNow();
  const list = activity.data;
  // Read from the page on screen (the previous one stays while the next loads), so the numbers
  // always describe the entries shown.
  const shownPage = list ? Math.floor(list.skip / list.limit) + 1 : page;
  const pages = list ? Math.max(1, Math.ceil(list.total / list.limit)) : 1;
  const filtered = filters.tone !== '' || filters.start_date !== '' || filters.end_date !== '';

  return (
    <>
      <header className="page-header">
        <h1>{t('page.title')}</h1>
        <p className="text-muted">{t('page.lead')}</p>
      </header>
      <section className="activity card" aria-labelledby="activity-view-title">
        <h2 id="activity-view-title" className="visually-hidden">
          {t(`page.${kind}`)}
        </h2>
        <SegmentedChoice
          options={ACTIVITY_KINDS}
          value={kind}
          onChange={(next) => {
            setKind(next);
            setPage(1);
          }}
          label={t('page.views')}
          testId="activity-views"
          optionTestId={(option) => `activity-view-${option}`}
          renderOption={(option) => t(`page.${option}`)}
        />
        <Filters
          applied={filters}
          onApply={(next) => {
            setFilters(next);
            setPage(1);
          }}
        />
        {activity.isPending && (
          <p className="text-muted" role="status">
            {t('page.loading')}
          </p>
        )}
        {activity.isError && (
          <FormAlert tone="error" testId="activity-error">
            {t('page.loadFailed')}{' '}
            <button type="button" className="btn btn--ghost" onClick={() => void activity.refetch()}>
              {t('page.retry')}
            </button>
          </FormAlert>
        )}
        {list && list.items.length === 0 && (
          <p className="text-muted" data-testid="activity-empty">
            {filtered ? t('page.emptyFiltered') : t('page.empty')}
          </p>
        )}
        {list && list.items.length > 0 && (
          <div className="activity-table__scroll">
            <table
              className="activity-table"
              data-testid={`activity-list-${kind}`}
              aria-busy={activity.isPlaceholderData}
            >
              <thead>
                <tr>
                  <th scope="col">{t('columns.action')}</th>
                  <th scope="col">{t('columns.ip')}</th>
                  <th scope="col">{t('columns.date')}</th>
                  <th scope="col">{t('columns.details')}</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((entry) => (
                  <EntryRow key={entry.id} entry={entry} now={now} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list && (
          <nav className="activity-pagination" aria-label={t('pagination.label')}>
            <button
              type="button"
              className="btn btn--ghost"
              disabled={shownPage <= 1}
              onClick={() => setPage(shownPage - 1)}
              data-testid="activity-previous"
            >
              {t('pagination.previous')}
            </button>
            <span aria-live="polite" data-testid="activity-page">
              {t('pagination.page', { page: shownPage, pages, total: list.total })}
            </span>
            <button
              type="button"
              className="btn btn--ghost"
              disabled={shownPage >= pages}
              onClick={() => setPage(shownPage + 1)}
              data-testid="activity-next"
            >
              {t('pagination.next')}
            </button>
            <SelectField
              id="activity-page-size"
              className="activity-page-size"
              label={t('pagination.pageSize')}
              value={String(limit)}
              onChange={(event) => {
                setLimit(Number(event.target.value));
                setPage(1);
              }}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </SelectField>
          </nav>
        )}
      </section>
    </>
  );
}
