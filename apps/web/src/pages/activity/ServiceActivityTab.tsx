// /dashboard/services/{id}/activity: the service's own history in two views. "Changes" pages
// through its activity entries (GET /activity/audit/{id}: who changed what, from where) with the
// account page's table; "Log" reads its log (GET /services/{id}/logs, the newest 100 lines shown
// newest first): those changes and what its storage node did, each line a code in the reader's
// language (node-log.ts), a line written before codes by its text.
import { ACTIVITY_DEFAULT_LIMIT, type ServiceLogLine } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SegmentedChoice } from '../../components/SegmentedChoice.tsx';
import { useDocumentTitle } from '../../components/useDocumentTitle.ts';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import '../../i18n/activity-messages.ts';
import { useServiceDetail } from '../services/service-context.ts';
import { useUrlPage } from '../../workspace/url-list.ts';
import { useServiceAudit, useServiceLog } from './activity-api.ts';
import {
  ActionText,
  EntriesPager,
  EntriesTable,
  EntryDetails,
  pageOf,
  TONE_CLASS,
  useActivityNow,
  useSentenceContext,
} from './activity-entries.tsx';
import { nodeLogLine } from './node-log.ts';
import type { SentenceContext } from './activity-sentence.ts';
import { formatDateTime, formatRelativeTime } from './relative-time.ts';
import './activity.css';

const VIEWS = ['changes', 'log'] as const;
type View = (typeof VIEWS)[number];

function Changes({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation('activity');
  // In the address (`?page=2`): a link or a reload opens that page, back and forward step through.
  const [page, setPage] = useUrlPage();
  const audit = useServiceAudit(serviceId, page, ACTIVITY_DEFAULT_LIMIT);
  const list = audit.data;
  if (audit.isPending)
    return (
      <p className="text-muted" role="status">
        {t('page.loading')}
      </p>
    );
  if (audit.isError || !list)
    return (
      <LoadFailed testId="service-activity-error" query={audit} retryLabel={t('page.retry')}>
        {t('page.loadFailed')}
      </LoadFailed>
    );
  return (
    <>
      {list.items.length === 0 ? (
        <p className="text-muted" data-testid="service-activity-empty">
          {t('page.empty')}
        </p>
      ) : (
        <EntriesTable
          items={list.items}
          testId="service-activity-changes"
          busy={audit.isPlaceholderData}
          withService={false}
        />
      )}
      {pageOf(list).pages > 1 && <EntriesPager list={list} onPage={setPage} />}
    </>
  );
}

function LogLine({ line, now, context }: { line: ServiceLogLine; now: Date; context: SentenceContext }) {
  const { t, i18n } = useTranslation('activity');
  const at = new Date(line.at);
  const node =
    line.source === 'agent' && line.code !== null ? nodeLogLine(line.code, line.params, context) : null;
  let body;
  if (line.source === 'management' && line.code !== null) {
    const { ip: _ip, ...details } = line.params;
    body = (
      <>
        <ActionText action={line.code} tone={line.level} />
        <EntryDetails action={line.code} details={details} context={context} />
      </>
    );
  } else {
    body = (
      <>
        <span className={`badge ${TONE_CLASS[line.level]} activity-action`} data-tone={line.level}>
          <span className="visually-hidden">{t(`tones.${line.level}`)}: </span>
          {node ? node.text : line.message}
        </span>
        {node?.detail && (
          <details className="service-log__detail">
            <summary>{t('log.detail')}</summary>
            <code>{node.detail}</code>
          </details>
        )}
      </>
    );
  }
  return (
    <li className="service-log__line" data-source={line.source} data-code={line.code ?? ''}>
      <div className="service-log__meta">
        <span className="text-muted">{t(`service.source_${line.source}`)}</span>
        <time dateTime={line.at} title={formatDateTime(at, i18n.language)}>
          {formatRelativeTime(at, { now, language: i18n.language, justNow: t('time.justNow') })}
        </time>
      </div>
      <div className="service-log__body">{body}</div>
    </li>
  );
}

function Log({ serviceId }: { serviceId: string }) {
  const { t } = useTranslation('activity');
  const log = useServiceLog(serviceId);
  const now = useActivityNow();
  const context = useSentenceContext();
  if (log.isPending || !context)
    return (
      <p className="text-muted" role="status">
        {t('service.logLoading')}
      </p>
    );
  if (log.isError)
    return (
      <LoadFailed testId="service-log-error" query={log} retryLabel={t('page.retry')}>
        {t('service.logLoadFailed')}
      </LoadFailed>
    );
  if (log.data.lines.length === 0)
    return (
      <p className="text-muted" data-testid="service-log-empty">
        {t('service.logEmpty')}
      </p>
    );
  // Newest first, as the changes read.
  const lines = [...log.data.lines].reverse();
  return (
    <ol className="service-log" data-testid="service-log">
      {lines.map((line, index) => (
        <LogLine key={`${line.at}-${index}`} line={line} now={now} context={context} />
      ))}
    </ol>
  );
}

export function ServiceActivityTab() {
  const { t } = useTranslation('activity');
  const { service } = useServiceDetail();
  useDocumentTitle(`${t('service.title')} · ${service.name}`);
  const [view, setView] = useState<View>('changes');
  return (
    <section className="activity card" aria-labelledby="service-activity-title">
      <header>
        <h2 id="service-activity-title">{t('service.title')}</h2>
        <p className="text-muted">{t('service.lead')}</p>
      </header>
      <SegmentedChoice
        options={VIEWS}
        value={view}
        onChange={setView}
        label={t('service.views')}
        testId="service-activity-views"
        optionTestId={(option) => `service-activity-view-${option}`}
        renderOption={(option) => t(`service.${option}`)}
      />
      {view === 'changes' ? <Changes serviceId={service.id} /> : <Log serviceId={service.id} />}
    </section>
  );
}
