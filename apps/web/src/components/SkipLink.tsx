import { useTranslation } from 'react-i18next';

export const MAIN_CONTENT_ID = 'main';

export function SkipLink() {
  const { t } = useTranslation();
  return (
    <a className="skip-link" href={`#${MAIN_CONTENT_ID}`}>
      {t('header.skipToContent')}
    </a>
  );
}
