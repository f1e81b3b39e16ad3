// The create and edit form of a backup schedule (spec §3 "Backup schedule", §9 presets): its name;
// when it runs, a preset first (daily, weekly on Sunday, monthly on the 1st, each at 2:00) or
// custom (frequency, hour and minute, the weekday or the day of the month); its time zone (the
// browser's to begin with); the folders it backs up, ticked from the service's shares, home folders
// and exports (never a typed path); how many full and incremental backups it keeps; and whether it
// is active. The rules are the contract's, so the form refuses what the server would, in its words.
import {
  BACKUP_DEFAULT_TIME_ZONE,
  BACKUP_FREQUENCIES,
  BACKUP_PATH_KINDS,
  BACKUP_PRESETS,
  BACKUP_SCHEDULE_STATES,
  createBackupScheduleRequestSchema,
  updateBackupScheduleRequestSchema,
  isTimeZone,
  type BackupPath,
  type BackupPreset,
  type BackupSchedule,
  type BackupSources,
} from '@debesis/contract';
import type { ChangeEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError, isApiError } from '../../../api/api-error.ts';
import { CheckboxField } from '../../../components/form/fields.tsx';
import { fieldErrorText } from '../../../forms/messages.ts';
import type { ContractForm } from '../../../forms/use-contract-form.ts';
import { backupsApi } from '../../../workspace/backups-api.ts';
import { whenText, WEEKDAYS, type BackupsTranslate, type BackupTime } from './backup-parts.tsx';
import { builders, FieldOf, startValues } from '../kit/form-fields.tsx';
import type { ResourceForm } from '../kit/ResourceCrud.tsx';

/** The presets of §9, then the owner's own time. */
export const PRESET_CHOICES = ['daily', 'weekly', 'monthly', 'custom'] as const satisfies readonly (
  BackupPreset | 'custom'
)[];
export type PresetChoice = (typeof PRESET_CHOICES)[number];

// Each field's rule as the server checks a schedule's change (the create request's, without its
// defaults: the form always sends every field).
const change = updateBackupScheduleRequestSchema.shape;

/** A folder the schedule may back up, ticked or not. */
const pathRowSchema = z.object({ kind: z.enum(BACKUP_PATH_KINDS), name: z.string(), allowed: z.boolean() });
type PathRow = z.infer<typeof pathRowSchema>;

export const backupScheduleFormSchema = z.object({
  name: change.name.unwrap(),
  /** The form's own: which preset set the time (the request carries the time itself). */
  preset: z.enum(PRESET_CHOICES),
  frequency: change.frequency.unwrap(),
  hour: change.hour.unwrap(),
  minute: change.minute.unwrap(),
  weekday: change.weekday.unwrap(),
  month_day: change.month_day.unwrap(),
  time_zone: change.time_zone.unwrap(),
  // The ticked rows, as the contract takes them: at least one, none twice.
  paths: z
    .array(pathRowSchema)
    .transform((rows) => rows.filter((row) => row.allowed).map(({ kind, name }) => ({ kind, name })))
    .pipe(change.paths.unwrap()),
  keep_full: change.keep_full.unwrap(),
  keep_incremental: change.keep_incremental.unwrap(),
  full_every_days: change.full_every_days.unwrap(),
  state: change.state.unwrap(),
});
type Schema = typeof backupScheduleFormSchema;
type Values = z.input<Schema>;

// A new schedule starts from the contract's defaults (4 full, 14 incremental, a full one every 7
// days, active) at the daily preset, so the form offers what the API would do.
const NEW_SCHEDULE = createBackupScheduleRequestSchema
  .pick({
    weekday: true,
    month_day: true,
    keep_full: true,
    keep_incremental: true,
    full_every_days: true,
    state: true,
  })
  .parse({});

/** The reader's own time zone (the account has none), or the seller's if the browser names none we know. */
export function browserTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isTimeZone(zone) ? zone : BACKUP_DEFAULT_TIME_ZONE;
}

let knownZones: readonly string[] | null = null;

/** Every IANA zone the browser knows, with `current` among them even if it does not list it (UTC). */
function timeZones(current: string): readonly string[] {
  knownZones ??= typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return knownZones.includes(current) ? knownZones : [current, ...knownZones];
}

/** The preset a time matches, else custom (an edited schedule opens on the choice it was made with). */
export function presetOf(when: BackupTime): PresetChoice {
  const presets = Object.keys(BACKUP_PRESETS) as BackupPreset[];
  const found = presets.find((key) => {
    const preset: BackupTime = BACKUP_PRESETS[key];
    return (
      preset.frequency === when.frequency &&
      preset.hour === when.hour &&
      preset.minute === when.minute &&
      (preset.weekday === undefined || preset.weekday === when.weekday) &&
      (preset.month_day === undefined || preset.month_day === when.month_day)
    );
  });
  return found ?? 'custom';
}

const samePath = (a: BackupPath, b: BackupPath) => a.kind === b.kind && a.name === b.name;

/** The folders offered (by kind, as the API lists them) and any chosen one no longer offered, ticked as chosen. */
export function pathRows(sources: BackupSources, chosen: readonly BackupPath[] = []): PathRow[] {
  const offered: BackupPath[] = [
    ...sources.shares.map((name) => ({ kind: 'share' as const, name })),
    ...sources.homes.map((name) => ({ kind: 'home' as const, name })),
    ...sources.exports.map((name) => ({ kind: 'export' as const, name })),
  ];
  const gone = chosen.filter((path) => !offered.some((candidate) => samePath(candidate, path)));
  return [...offered, ...gone].map((path) => ({
    ...path,
    allowed: chosen.some((candidate) => samePath(candidate, path)),
  }));
}

/**
 * The server names a refused folder by its place in the list it was sent (`paths.2.name`), which
 * is not its row in the form (that lists every folder offered): its message goes on the list.
 */
function onTheFolderList(error: unknown): unknown {
  if (!isApiError(error)) return error;
  const fields = Object.entries(error.fieldErrors);
  if (!fields.some(([field]) => field.startsWith('paths.'))) return error;
  const fieldErrors: Record<string, string> = {};
  for (const [field, message] of fields)
    fieldErrors[field.startsWith('paths.') ? 'paths' : field] ??= message;
  return new ApiError(error.status, error.detail, error.message, fieldErrors, {
    cause: error,
    data: error.data,
    retryAfterSeconds: error.retryAfterSeconds,
  });
}

export function backupScheduleForm(
  serviceId: string,
  sources: BackupSources | undefined,
  t: BackupsTranslate,
): ResourceForm<BackupSchedule, Schema> {
  const offered = sources ?? { shares: [], homes: [], exports: [] };
  return {
    schema: () => backupScheduleFormSchema,
    values: (schedule) => {
      const fresh: Omit<Values, 'preset' | 'paths'> = {
        name: '',
        ...BACKUP_PRESETS.daily,
        ...NEW_SCHEDULE,
        time_zone: browserTimeZone(),
      };
      return {
        ...startValues(fresh, schedule),
        preset: schedule ? presetOf(schedule) : 'daily',
        paths: pathRows(offered, schedule?.paths),
      };
    },
    save: async ({ preset: _preset, ...body }, schedule) => {
      try {
        return schedule
          ? await backupsApi.updateSchedule(serviceId, schedule.id, body)
          : await backupsApi.createSchedule(serviceId, body);
      } catch (error) {
        throw onTheFolderList(error);
      }
    },
    texts: {
      createTitle: t('form.createTitle'),
      editTitle: (name) => t('form.editTitle', { name }),
      create: t('form.create'),
      createFailed: t('form.createFailed'),
      updateFailed: t('form.updateFailed'),
    },
    fields: (f, schedule) => [
      f.text('name', 'backup-schedule-name', t('form.name'), {
        hint: t('form.nameHint'),
        input: { required: true, maxLength: 80 },
      }),
      { kind: 'custom', key: 'when', render: (form) => <WhenFields form={form} /> },
      f.select(
        'time_zone',
        'backup-schedule-time-zone',
        t('form.timeZone'),
        timeZones(schedule?.time_zone ?? browserTimeZone()).map((zone) => ({
          value: zone,
          label: zone.replaceAll('_', ' '),
        })),
        { hint: t('form.timeZoneHint') },
      ),
      { kind: 'custom', key: 'paths', render: (form) => <PathsField form={form} sources={offered} /> },
      f.group(t('form.retention'), 'backup-retention', [
        {
          kind: 'custom',
          key: 'retention-hint',
          render: () => <p className="field__hint">{t('form.retentionHint')}</p>,
        },
        f.number('keep_full', 'backup-schedule-keep-full', t('form.keepFull'), { min: 1, max: 1000 }),
        f.number('keep_incremental', 'backup-schedule-keep-incremental', t('form.keepIncremental'), {
          min: 0,
          max: 10_000,
        }),
        f.number('full_every_days', 'backup-schedule-full-every', t('form.fullEveryDays'), {
          min: 1,
          max: 365,
        }),
      ]),
      f.select(
        'state',
        'backup-schedule-state',
        t('form.state'),
        BACKUP_SCHEDULE_STATES.map((state) => ({ value: state, label: t(`schedules.state_${state}`) })),
        { hint: t('form.stateHint') },
      ),
    ],
  };
}

/** The preset choice, and with Custom the time's own fields (those its frequency reads). */
function WhenFields({ form }: { form: ContractForm<Schema> }) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  const [preset, frequency] = useWatch({ control: form.control, name: ['preset', 'frequency'] });
  const f = builders<Schema>();
  const choose = (choice: PresetChoice) => {
    if (choice === 'custom') return;
    const time: BackupTime = BACKUP_PRESETS[choice];
    form.setValue('frequency', time.frequency);
    form.setValue('hour', time.hour);
    form.setValue('minute', time.minute);
    if (time.weekday !== undefined) form.setValue('weekday', time.weekday);
    if (time.month_day !== undefined) form.setValue('month_day', time.month_day);
  };
  const presetField = form.register('preset', {
    onChange: (event: ChangeEvent<HTMLInputElement>) => choose(event.target.value as PresetChoice),
  });
  return (
    <fieldset className="fieldset backup-when">
      <legend className="field__label">{t('form.when')}</legend>
      <div className="backup-choices" data-testid="backup-schedule-presets">
        {PRESET_CHOICES.map((choice) => (
          <label key={choice} className="backup-choice">
            <input
              type="radio"
              value={choice}
              data-testid={`backup-schedule-preset-${choice}`}
              {...presetField}
            />
            <span>{choice === 'custom' ? t('form.preset_custom') : whenText(BACKUP_PRESETS[choice], t)}</span>
          </label>
        ))}
      </div>
      {preset === 'custom' && (
        <div className="backup-when__custom">
          <FieldOf
            form={form}
            spec={f.select(
              'frequency',
              'backup-schedule-frequency',
              t('form.frequency'),
              BACKUP_FREQUENCIES.map((value) => ({ value, label: t(`form.frequency_${value}`) })),
            )}
          />
          {frequency === 'weekly' && (
            <FieldOf
              form={form}
              spec={f.select(
                'weekday',
                'backup-schedule-weekday',
                t('form.weekday'),
                WEEKDAYS.map((day) => ({ value: day, label: t(`form.weekday_${day}`) })),
                { numeric: true },
              )}
            />
          )}
          {frequency === 'monthly' && (
            <FieldOf
              form={form}
              spec={f.number('month_day', 'backup-schedule-month-day', t('form.monthDay'), {
                hint: t('form.monthDayHint'),
                min: 1,
                max: 28,
              })}
            />
          )}
          <div className="form__row">
            {frequency !== 'hourly' && (
              <FieldOf
                form={form}
                spec={f.number('hour', 'backup-schedule-hour', t('form.hour'), { min: 0, max: 23 })}
              />
            )}
            <FieldOf
              form={form}
              spec={f.number('minute', 'backup-schedule-minute', t('form.minute'), { min: 0, max: 59 })}
            />
          </div>
        </div>
      )}
    </fieldset>
  );
}

/** The folders to back up, ticked from lists by kind; the list's message (none ticked) below them. */
function PathsField({ form, sources }: { form: ContractForm<Schema>; sources: BackupSources }) {
  const { t } = useTranslation(['backupsTab', 'workspace']);
  const { t: tApp } = useTranslation();
  const rows = useWatch({ control: form.control, name: 'paths' });
  const listError = form.formState.errors.paths;
  // The contract's own check lands on the list (`paths.root`); the server's on `paths` itself.
  const error = fieldErrorText(tApp, listError?.root?.message ?? listError?.message);
  const offered = pathRows(sources);
  const isOffered = (row: PathRow) => offered.some((candidate) => samePath(candidate, row));
  return (
    <fieldset
      className="fieldset backup-paths"
      aria-describedby={error ? 'backup-paths-hint backup-paths-error' : 'backup-paths-hint'}
    >
      <legend className="field__label">{t('form.folders')}</legend>
      <p id="backup-paths-hint" className="field__hint">
        {t('form.foldersHint')}
      </p>
      {BACKUP_PATH_KINDS.map((kind) => {
        const ofKind = rows.flatMap((row, index) => (row.kind === kind ? [{ row, index }] : []));
        return (
          <fieldset key={kind} className="fieldset backup-paths__kind" data-testid={`backup-paths-${kind}`}>
            <legend className="backup-paths__legend">{t(`form.kind_${kind}`)}</legend>
            {ofKind.length === 0 && <p className="text-muted">{t(`form.kindEmpty_${kind}`)}</p>}
            {ofKind.map(({ row, index }) => {
              const id = `backup-path-${kind}-${row.name}`;
              return (
                <CheckboxField
                  key={row.name}
                  id={id}
                  label={isOffered(row) ? row.name : t('form.gone', { name: row.name })}
                  data-testid={id}
                  {...form.register(`paths.${index}.allowed`)}
                />
              );
            })}
          </fieldset>
        );
      })}
      {error && (
        <p id="backup-paths-error" className="field__error" data-testid="backup-paths-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
