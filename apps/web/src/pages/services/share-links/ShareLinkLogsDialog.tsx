// A link's access log: every attempt with its time, address, browser, result, bytes sent and
// path, newest first, filtered by result and by the start of an address, a page at a time
// ("Page X of Y (N total)", spec §9).
import { SHARE_LINK_ACCESS_RESULTS, type ShareLink, type ShareLinkAccessResult } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/Dialog.tsx';
import { InputField, SelectField } from '../../../components/form/fields.tsx';
import {
  ACCESS_LOG_PAGE_SIZE,
  useShareLinkAccessLog,
  type AccessLogFilter,
} from '../../../workspace/share-links-api.ts';
import { formatDateTime } from '../../activity/relative-time.ts';
import { DataTable } from '../kit/DataTable.tsx';
import { OperationError } from '../resource-parts.tsx';
import { formatBytes } from '../service-parts.tsx';

export function ShareLinkLogsDialog({
  serviceId,
  link,
  name,
  onClose,
}: {
  serviceId: string;
  link: ShareLink;
  name: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('shareLinksTab');
  const [filter, setFilter] = useState<AccessLogFilter>({ result: '', ip: '', page: 0 });
  const log = useShareLinkAccessLog(serviceId, link.id, filter);
  const total = log.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ACCESS_LOG_PAGE_SIZE));
  return (
    <Dialog title={t('log.title', { name })} onClose={onClose} testId="share-link-logs">
      <div className="share-log__filters">
        <SelectField
          id="share-log-result"
          label={t('log.result')}
          value={filter.result}
          onChange={(event) =>
            setFilter({ ...filter, page: 0, result: event.target.value as ShareLinkAccessResult | '' })
          }
          data-testid="share-link-log-result"
        >
          <option value="">{t('log.allResults')}</option>
          {SHARE_LINK_ACCESS_RESULTS.map((result) => (
            <option key={result} value={result}>
              {t(`log.results.${result}`)}
            </option>
          ))}
        </SelectField>
        <InputField
          id="share-log-ip"
          label={t('log.ip')}
          value={filter.ip}
          maxLength={64}
          onChange={(event) => setFilter({ ...filter, page: 0, ip: event.target.value })}
          data-testid="share-link-log-ip"
        />
      </div>
      {log.isError && (
        <OperationError error={log.error} failure={t('logsFailed')} testId="share-link-logs-error" />
      )}
      {log.data && (
        <DataTable
          label={t('log.title', { name })}
          empty={{ text: t('log.empty'), testId: 'share-link-logs-empty', className: 'text-muted' }}
          rows={log.data.entries}
          rowKey={(entry) => entry.id}
          rowData={(entry) => ({ 'data-testid': 'share-link-log-row', 'data-result': entry.result })}
          rowHeader={false}
          columns={[
            { title: t('log.at'), cell: (entry) => formatDateTime(new Date(entry.at), i18n.language) },
            { title: t('log.address'), cell: (entry) => <code>{entry.ip}</code> },
            { title: t('log.result'), cell: (entry) => t(`log.results.${entry.result}`) },
            {
              title: t('log.bytes'),
              numeric: true,
              cell: (entry) => formatBytes(entry.bytes_sent, i18n.language),
            },
            { title: t('log.path'), cell: (entry) => (entry.path === null ? '—' : entry.path || '/') },
            { title: t('log.browser'), className: 'share-log__agent', cell: (entry) => entry.user_agent },
          ]}
        />
      )}
      <div className="button-row">
        <button
          type="button"
          className="btn btn--secondary btn--small"
          disabled={filter.page === 0}
          onClick={() => setFilter({ ...filter, page: filter.page - 1 })}
        >
          {t('log.previous')}
        </button>
        <span data-testid="share-link-logs-page">
          {t('log.page', { page: filter.page + 1, pages, total })}
        </span>
        <button
          type="button"
          className="btn btn--secondary btn--small"
          disabled={filter.page + 1 >= pages}
          onClick={() => setFilter({ ...filter, page: filter.page + 1 })}
        >
          {t('log.next')}
        </button>
      </div>
    </Dialog>
  );
}
