// The custom path of a share link, picked by walking the storage's folders from its root (never
// typed): a folder is opened or chosen, a file chosen. The node lists each folder on request.
import type { StorageEntry } from '@debesis/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStorageFolder } from '../../../workspace/share-links-api.ts';
import { PathBreadcrumbs } from '../kit/PathBreadcrumbs.tsx';
import { OperationError } from '../resource-parts.tsx';
import { formatBytes } from '../service-parts.tsx';

const join = (folder: string, name: string) => (folder ? `${folder}/${name}` : name);

export function StoragePicker({
  serviceId,
  chosen,
  onChoose,
}: {
  serviceId: string;
  chosen: string;
  onChoose: (path: string) => void;
}) {
  const { t, i18n } = useTranslation('shareLinksTab');
  const [folder, setFolder] = useState('');
  const listing = useStorageFolder(serviceId, folder);
  const names = folder ? folder.split('/') : [];
  const row = (entry: StorageEntry) => (
    <li key={entry.name} className="share-picker__entry">
      {entry.type === 'folder' ? (
        <button
          type="button"
          className="btn btn--ghost"
          onClick={() => setFolder(join(folder, entry.name))}
          data-testid={`share-link-picker-entry-${entry.name}`}
        >
          📁 {entry.name}
        </button>
      ) : (
        <span data-testid={`share-link-picker-entry-${entry.name}`}>
          {entry.name} <span className="text-muted">({formatBytes(entry.size, i18n.language)})</span>
        </span>
      )}{' '}
      <button
        type="button"
        className="btn btn--secondary btn--small"
        onClick={() => onChoose(join(folder, entry.name))}
        data-testid={`share-link-picker-choose-${entry.name}`}
      >
        {t('form.pick')} <span className="visually-hidden">{entry.name}</span>
      </button>
    </li>
  );
  return (
    <div className="share-picker" data-testid="share-link-picker">
      <p data-testid="share-link-chosen">
        {chosen ? (
          t('form.chosen', { path: chosen })
        ) : (
          <span className="text-muted">{t('form.pathNone')}</span>
        )}
      </p>
      <PathBreadcrumbs
        label={t('form.path')}
        root={t('form.storage')}
        names={names}
        onOpen={(parts) => setFolder(parts.join('/'))}
      />
      {listing.isError && <OperationError error={listing.error} failure={t('browseFailed')} />}
      {listing.data &&
        (listing.data.entries.length === 0 ? (
          <p className="text-muted">{t('form.emptyFolder')}</p>
        ) : (
          <ul className="share-picker__list">{listing.data.entries.map(row)}</ul>
        ))}
      {listing.data?.truncated && (
        <p className="text-muted">{t('form.truncated', { count: listing.data.entries.length })}</p>
      )}
    </div>
  );
}
