// What the monitoring tab's views share: their cards, the window (§9: 24, 48, 72 hours, a week, and real time
// for activity) kept in the address, the load-failure message (§8), the reader's numbers, sizes,
// times and durations, and a daemon's state as a badge.
import {
  MONITORING_DEFAULT_HOURS,
  MONITORING_WINDOW_HOURS,
  REALTIME_MINUTES,
  type DaemonState,
} from '@debesis/contract';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { FormAlert } from '../../../components/form/fields.tsx';
import { SegmentedChoice } from '../../../components/SegmentedChoice.tsx';
import { DataTable, type DataTableProps } from '../kit/DataTable.tsx';
import { formatDateTime, localeOf } from '../../activity/relative-time.ts';
import { numberFormat, numberLocale } from '../../plans/format.ts';
import type { ActivityWindow } from '../../../workspace/monitoring-api.ts';
import { formatBytes } from '../service-parts.tsx';
import { DAY_TICKS_AFTER } from './chart-format.ts';

export type Translate = TFunction<['monitoringTab', 'workspace']>;

/** Where the service runs, in words: not placed yet, or its node by name, online or not. */
export function nodeText(node: { name: string; online: boolean } | null, t: Translate): string {
  if (node === null) return t('node.notPlaced');
  return node.online ? t('node.online', { name: node.name }) : t('node.offline', { name: node.name });
}

/** The windows as the address and the choice name them: hours, and `realtime`. */
type HourChoice = `${(typeof MONITORING_WINDOW_HOURS)[number]}`;
export type WindowChoice = HourChoice | 'realtime';
const HOUR_WINDOWS: readonly WindowChoice[] = MONITORING_WINDOW_HOURS.map((hours) => `${hours}` as const);
export const WINDOWS: readonly WindowChoice[] = [...HOUR_WINDOWS, 'realtime'];
const WINDOW_PARAM = 'window';
const DEFAULT_WINDOW: WindowChoice = `${MONITORING_DEFAULT_HOURS}` as const;

/**
 * The window chosen, in the address (`?window=72`, `?window=realtime`), the default left out. A view
 * without real time (storage) reads real time as the default.
 */
export function useWindowChoice(realtime: boolean): [WindowChoice, (next: WindowChoice) => void] {
  const [params, setParams] = useSearchParams();
  const asked = params.get(WINDOW_PARAM);
  const offered = realtime ? WINDOWS : HOUR_WINDOWS;
  const choice = offered.find((option) => option === asked) ?? DEFAULT_WINDOW;
  const choose = (next: WindowChoice) =>
    setParams(
      (current) => {
        const changed = new URLSearchParams(current);
        if (next === DEFAULT_WINDOW) changed.delete(WINDOW_PARAM);
        else changed.set(WINDOW_PARAM, next);
        return changed;
      },
      { replace: true },
    );
  return [choice, choose];
}

export function windowOf(choice: WindowChoice): ActivityWindow {
  return choice === 'realtime' ? { minutes: REALTIME_MINUTES } : { hours: Number(choice) };
}

export function WindowChoiceBar({
  value,
  onChange,
  realtime,
}: {
  value: WindowChoice;
  onChange: (next: WindowChoice) => void;
  realtime: boolean;
}) {
  const { t } = useTranslation('monitoringTab');
  return (
    <SegmentedChoice
      options={realtime ? WINDOWS : HOUR_WINDOWS}
      value={value}
      onChange={onChange}
      label={t('window.label')}
      testId="monitoring-window"
      optionTestId={(option) => `monitoring-window-${option}`}
      renderOption={(option) => t(`window.short_${option}`)}
    />
  );
}

/**
 * One of the views' cards, titled (`<id>-title` labels it); a lead goes under the title, and
 * controls (the window) beside both. Given what it loads, it says while that loads and when it
 * failed (`<id>-error` on the failure, unless `failureTestId` says).
 */
export function MonitoringSection({
  id,
  title,
  lead,
  actions,
  load,
  failureTestId,
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  actions?: ReactNode;
  /** The query itself, not a copy: spreading it would subscribe the view to all its fields. */
  load?: { isPending: boolean; isError: boolean; refetch: () => unknown };
  failureTestId?: string;
  children: ReactNode;
}) {
  const heading = (
    <h2 id={`${id}-title`} className="resource-section__title">
      {title}
    </h2>
  );
  const titled = lead ? (
    <div>
      {heading}
      <p className="text-muted resource-section__lead">{lead}</p>
    </div>
  ) : (
    heading
  );
  return (
    <section className="card resource-section" aria-labelledby={`${id}-title`}>
      {actions ? (
        <div className="resource-section__head">
          {titled}
          {actions}
        </div>
      ) : (
        titled
      )}
      {load?.isPending && <Loading />}
      {load?.isError && <LoadFailure retry={load.refetch} testId={failureTestId ?? `${id}-error`} />}
      {children}
    </section>
  );
}

/**
 * A section that is one table: the table named as the section, and `none` said (muted, test id
 * `<id>-none`) when it has no rows.
 */
export function MonitoringTableSection<Row>({
  id,
  title,
  none,
  ...table
}: { id: string; title: string; none: string } & Omit<DataTableProps<Row>, 'label' | 'testId' | 'empty'>) {
  return (
    <MonitoringSection id={id} title={title}>
      <DataTable
        label={title}
        testId={id}
        empty={{ text: none, testId: `${id}-none`, className: 'text-muted' }}
        {...table}
      />
    </MonitoringSection>
  );
}

/** §8: monitoring that failed to load says so, and offers to ask again. */
export function LoadFailure({ retry, testId }: { retry: () => unknown; testId: string }) {
  const { t } = useTranslation('monitoringTab');
  return (
    <FormAlert tone="error" testId={testId}>
      {t('loadFailed')}{' '}
      <button type="button" className="btn btn--ghost" onClick={() => void retry()}>
        {t('retry')}
      </button>
    </FormAlert>
  );
}

export function Loading() {
  const { t } = useTranslation('monitoringTab');
  return (
    <p className="text-muted" role="status">
      {t('loading')}
    </p>
  );
}

/** The reader's way of writing what the views show. */
export function useFormats() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const locale = localeOf(language);
  const count = numberFormat(numberLocale(language));
  const oneDecimal = numberFormat(numberLocale(language), { maximumFractionDigits: 1 });
  const hourMinute = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' });
  const dayMonth = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' });
  return {
    language,
    count: (value: number) => count.format(value),
    decimal: (value: number) => oneDecimal.format(value),
    bytes: (value: number) => formatBytes(Math.max(0, value), language),
    dateTime: (iso: string) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? iso : formatDateTime(date, language);
    },
    /** An axis tick: hours and minutes up to two days, the day beyond. */
    tick: (seconds: number, span: number) =>
      (span <= DAY_TICKS_AFTER ? hourMinute : dayMonth).format(new Date(seconds * 1000)),
    /** A bucket's start: its hour and minute, with the day when the window is longer than one. */
    when: (seconds: number, span: number) =>
      span <= 86_400
        ? hourMinute.format(new Date(seconds * 1000))
        : formatDateTime(new Date(seconds * 1000), language),
  };
}

export type Formats = ReturnType<typeof useFormats>;

/** Seconds as "3 d 4 h", "5 h 12 min", "12 min" or "40 s". */
export function formatDuration(seconds: number, t: Translate): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  if (days > 0) return t('duration.days', { days, hours });
  if (hours > 0) return t('duration.hours', { hours, minutes });
  if (minutes > 0) return t('duration.minutes', { minutes, seconds: Math.floor(seconds % 60) });
  return t('duration.seconds', { seconds: Math.max(0, Math.round(seconds)) });
}

const DAEMON_TONE: Record<DaemonState, string> = {
  up: 'badge--success',
  down: 'badge--danger',
  not_needed: 'badge--info',
  not_live: 'badge--warning',
};

export function DaemonStateBadge({ state, testId }: { state: DaemonState; testId?: string }) {
  const { t } = useTranslation('monitoringTab');
  return (
    <span className={`badge ${DAEMON_TONE[state]}`} data-state={state} data-testid={testId}>
      {t(`daemonState.${state}`)}
    </span>
  );
}

/** A source's colour in the charts: one each, the same in every view (tokens.css). */
export const sourceColor = (index: number) => `--chart-${(index % 6) + 1}`;

/** ISO time as the unix seconds the chart reads. */
export const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
