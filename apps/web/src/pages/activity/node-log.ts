// The lines a service's storage node adds to its log, in the reader's language: each is a code
// of the contract's NODE_LOG_CODES with its params (the generation applied, the part that failed,
// the size refused, the nodes a failover or a move went between). The node's own words, when it
// gave any, are kept apart as `detail`: they are the program's message for whoever looks into it,
// not a sentence of ours.
import { NODE_LOG_CODES, type NodeLogCode } from '@debesis/contract';
import type { TFunction } from 'i18next';
import { activityEn } from '../../i18n/activity.en.ts';
import { numberFormat, numberLocale } from '../plans/format.ts';
import { joinWords } from './activity-sentence.ts';
import { formatDateTime } from './relative-time.ts';

export interface NodeLine {
  /** The line in the reader's language. */
  text: string;
  /** What the node said in its own words, when it said anything. */
  detail: string | null;
}

const isNodeLogCode = (code: string): code is NodeLogCode =>
  (NODE_LOG_CODES as readonly string[]).includes(code);

function driverName(t: TFunction<'activity'>, value: unknown): string {
  if (typeof value !== 'string' || value === '') return t('log.anyDriver');
  const drivers: Record<string, string> = activityEn.log.driver;
  return Object.hasOwn(drivers, value) ? t(`log.driver.${value}` as 'log.driver.storage') : value;
}

function nodeName(t: TFunction<'activity'>, value: unknown): string {
  return typeof value === 'string' && value !== '' ? value : t('log.unknownNode');
}

function bytes(value: unknown, language: string): string {
  const size = typeof value === 'number' ? value : 0;
  const format = numberFormat(numberLocale(language), { maximumFractionDigits: 1 });
  const gib = size / 1024 ** 3;
  return gib >= 1 ? `${format.format(gib)} GB` : `${format.format(size / 1024 ** 2)} MB`;
}

/** A node line's text, or null for a code this version of the app does not know. */
export function nodeLogLine(
  code: string,
  params: Record<string, unknown>,
  { t, language }: { t: TFunction<'activity'>; language: string },
): NodeLine | null {
  if (!isNodeLogCode(code)) return null;
  const detail = typeof params.detail === 'string' && params.detail !== '' ? params.detail : null;
  const generation = typeof params.generation === 'number' ? params.generation : 0;
  switch (code) {
    case 'generation_applied':
    case 'recovered': {
      const parts = [t(`log.${code}`, { generation })];
      const failures = typeof params.failures === 'number' ? params.failures : 0;
      if (failures > 0) parts.push(t('log.failures', { count: failures }));
      const notLive = Array.isArray(params.not_live) ? params.not_live : [];
      if (notLive.length > 0) {
        const drivers = joinWords(
          notLive.map((driver) => driverName(t, driver)),
          language,
        );
        parts.push(t('log.notLive', { drivers }));
      }
      return { text: parts.join('. '), detail: null };
    }
    case 'driver_failed':
    case 'driver_incomplete':
      return { text: t(`log.${code}`, { driver: driverName(t, params.driver) }), detail };
    case 'resize_refused':
      return { text: t('log.resize_refused', { size: bytes(params.bytes, language) }), detail };
    case 'apply_failed':
    case 'workspace_invalid':
    case 'data_deleted':
      return { text: t(`log.${code}`), detail };
    case 'failed_over': {
      const parts = [t('log.failed_over', { from: nodeName(t, params.from), to: nodeName(t, params.to) })];
      const takenAt = typeof params.replica_taken_at === 'string' ? new Date(params.replica_taken_at) : null;
      if (takenAt && !Number.isNaN(takenAt.getTime())) {
        parts.push(t('sentences.dataAsOf', { date: formatDateTime(takenAt, language) }));
      }
      return { text: parts.join('. '), detail };
    }
    case 'moved':
      return { text: t('log.moved', { from: nodeName(t, params.from), to: nodeName(t, params.to) }), detail };
    case 'standby_placed':
      return { text: t('log.standby_placed', { node: nodeName(t, params.node) }), detail };
  }
}
