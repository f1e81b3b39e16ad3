// The activity page (spec §2 "Activity: management history and login history"; §3 "Activity
// entry"; §8 the load failure; §9 default limit 50 and relative times): two histories from
// GET /api/v1/activity/filtered (kind management or login), each entry with its action in the
// reader's language coloured by its tone, the IP address, when (relative, the full date on hover)
// and its details; filters by tone and dates (blank ones are not sent) and pages.
import { ACTIVITY_DEFAULT_LIMIT, ACTIVITY_KINDS, ACTIVITY_TONES, type ActivityKind } from '@debesis/contract';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { InputField, SelectField } from '../../components/form/fields.tsx';
import { SegmentedChoice } from '../../components/SegmentedChoice.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import '../../i18n/activity-messages.ts';
import { NO_ACTIVITY_FILTERS, useActivity, type ActivityFilterValues } from './activity-api.ts';
import { EntriesPager, EntriesTable } from './activity-entries.tsx';
import './activity.css';

export const PAGE_SIZES = [10, 25, ACTIVITY_DEFAULT_LIMIT, 100] as const;

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
  const list = activity.data;
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
          <LoadFailed testId="activity-error" query={activity} retryLabel={t('page.retry')}>
            {t('page.loadFailed')}
          </LoadFailed>
        )}
        {list && list.items.length === 0 && (
          <p className="text-muted" data-testid="activity-empty">
            {filtered ? t('page.emptyFiltered') : t('page.empty')}
          </p>
        )}
        {list && list.items.length > 0 && (
          <EntriesTable
            items={list.items}
            testId={`activity-list-${kind}`}
            busy={activity.isPlaceholderData}
          />
        )}
        {list && (
          <EntriesPager list={list} onPage={setPage} testId="activity">
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
          </EntriesPager>
        )}
      </section>
    </>
  );
}
