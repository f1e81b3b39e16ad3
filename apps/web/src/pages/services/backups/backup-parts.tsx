// Small parts of the backups tab: a schedule's time in words ("Weekly on Sunday at 02:00"), its
// retention in words, a run's duration, a job's status (its colour and word), its progress bar
// and why it failed (the code's text, the program's own words folded away).
import type {
  BackupFailureCode,
  BackupFrequency,
  BackupPath,
  BackupPathKind,
  BackupSession,
  BackupSessionStatus,
} from '@debesis/contract';
import { BACKUP_PATH_KINDS } from '@debesis/contract';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { numberFormat, numberLocale } from '../../plans/format.ts';
import { formatBytes } from '../service-parts.tsx';
import { Bar } from '../kit/Bar.tsx';

export type BackupsTranslate = TFunction<['backupsTab', 'workspace']>;

/** 0 Sunday … 6 Saturday, as the contract counts them. */
export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** When a schedule runs: its frequency and the fields that frequency reads. */
export interface BackupTime {
  frequency: BackupFrequency;
  hour: number;
  minute: number;
  weekday?: number;
  month_day?: number;
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * A schedule's name as the reader should see it: the provider's daily backup in their language
 * (the API stores its English name), any other as its owner named it.
 */
export function scheduleName(
  schedule: { name: string; provider_managed: boolean } | undefined,
  stored: string,
  t: BackupsTranslate,
): string {
  return schedule?.provider_managed ? t('schedules.providerName') : stored;
}

/** "Hourly at :15", "Daily at 02:00", "Weekly on Sunday at 02:00", "Monthly on the 1st at 02:00". */
export function whenText(when: BackupTime, t: BackupsTranslate): string {
  const time = `${twoDigits(when.hour)}:${twoDigits(when.minute)}`;
  switch (when.frequency) {
    case 'hourly':
      return t('when.hourly', { minute: twoDigits(when.minute) });
    case 'daily':
      return t('when.daily', { time });
    case 'weekly':
      return t('when.weekly', { weekday: t(`when.on_${(when.weekday ?? 0) as Weekday}`), time });
    case 'monthly':
      return t('when.monthly', { count: when.month_day ?? 1, ordinal: true, time });
  }
}

/** "4 full, 14 incremental, full every 7 days". */
export function retentionText(
  retention: { keep_full: number; keep_incremental: number; full_every_days: number },
  t: BackupsTranslate,
): string {
  return t('retention.summary', {
    count: retention.full_every_days,
    full: retention.keep_full,
    incremental: retention.keep_incremental,
  });
}

/**
 * A schedule's folders by kind: "Samba shares: projects, media" and so on, one line a kind; none
 * named (the provider's backup) is the whole storage.
 */
export function PathList({ paths, testId }: { paths: readonly BackupPath[]; testId?: string }) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  if (paths.length === 0) return <span data-testid={testId}>{t('schedules.allStorage')}</span>;
  const kinds = BACKUP_PATH_KINDS.map((kind): [BackupPathKind, string[]] => [
    kind,
    paths.filter((path) => path.kind === kind).map((path) => path.name),
  ]).filter(([, names]) => names.length > 0);
  return (
    <ul className="plain-list" data-testid={testId}>
      {kinds.map(([kind, names]) => (
        <li key={kind}>
          {t(`form.kind_${kind}`)}: {names.join(', ')}
        </li>
      ))}
    </ul>
  );
}

/** "45 s", "3 min 5 s", "1 h 2 min". */
export function durationText(seconds: number, t: BackupsTranslate): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole < 60) return t('duration.seconds', { seconds: whole });
  if (whole < 3600) return t('duration.minutes', { minutes: Math.floor(whole / 60), seconds: whole % 60 });
  return t('duration.hours', { hours: Math.floor(whole / 3600), minutes: Math.floor((whole % 3600) / 60) });
}

const STATUS_TONES: Record<BackupSessionStatus, string> = {
  queued: 'badge',
  running: 'badge badge--info',
  completed: 'badge badge--success',
  failed: 'badge badge--danger',
};

/** A backup's or restore's status: its word on its colour (the word, never the colour alone). */
export function JobStatusBadge({ status, testId }: { status: BackupSessionStatus; testId?: string }) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  return (
    <span className={STATUS_TONES[status]} data-testid={testId} data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}

/** How far a running backup is (restic's own estimate): a bar and the figures in words. */
export function JobProgress({
  progress,
  label,
  testId,
}: {
  progress: NonNullable<BackupSession['progress']>;
  /** The bar's name for screen readers ("Progress of the backup"). */
  label: string;
  testId: string;
}) {
  const { t, i18n } = useTranslation(['backupsTab', 'workspace']);
  const locale = numberLocale(i18n.language);
  const percent = Math.min(100, Math.max(0, progress.percent));
  const text = t('history.progressText', {
    percent: numberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(percent / 100),
    files: numberFormat(locale).format(progress.files_done),
    bytes: formatBytes(progress.bytes_done, i18n.language),
  });
  return (
    <div className="backup-progress">
      <Bar
        role="progressbar"
        label={label}
        max={100}
        value={Math.round(percent)}
        percent={percent}
        text={text}
        tone="progress"
        testId={testId}
      />
      <span className="backup-progress__text" data-testid={`${testId}-text`}>
        {text}
      </span>
    </div>
  );
}

/** Why a job failed: its code in the reader's words, and the program's own words behind a fold. */
export function JobFailure({
  code,
  error,
  testId,
}: {
  code: BackupFailureCode | null;
  error: string | null;
  testId: string;
}) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  return (
    <div className="backup-failure" data-testid={testId}>
      <p className="backup-failure__reason">{t(`failure.${code ?? 'failed'}`)}</p>
      {error && (
        <details className="backup-failure__details">
          <summary>{t('status.programWords')}</summary>
          <pre data-testid={`${testId}-words`}>{error}</pre>
        </details>
      )}
    </div>
  );
}
