// Where the visitor is inside a shared folder: the folder's own name, then each folder down to
// here; all but the last are links (the URL's `?path=`).
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { pathNames, placeSearch } from './share-files.ts';

export function ShareBreadcrumb({ name, path }: { name: string; path: string }) {
  const { t } = useTranslation('sharePage');
  const crumbs = [
    { name, path: '' },
    ...pathNames(path).map((crumb, index, names) => ({
      name: crumb,
      path: names.slice(0, index + 1).join('/'),
    })),
  ];
  return (
    <nav aria-label={t('breadcrumb')} data-testid="share-breadcrumb">
      <ol role="list" className="share-page__crumbs">
        {crumbs.map((crumb, index) => (
          <li key={crumb.path}>
            {index === crumbs.length - 1 ? (
              <span aria-current="location">{crumb.name}</span>
            ) : (
              <Link to={{ search: placeSearch(crumb.path) }}>{crumb.name}</Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
