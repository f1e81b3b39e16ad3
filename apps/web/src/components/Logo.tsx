// The brand mark: a cloud ("debesis" is Lithuanian for cloud) and the name.
import { useTranslation } from 'react-i18next';

export function Logo() {
  const { t } = useTranslation();
  return (
    <span className="logo">
      <svg
        className="logo__mark"
        viewBox="0 0 32 32"
        width="32"
        height="32"
        aria-hidden="true"
        focusable="false"
      >
        <rect width="32" height="32" rx="8" fill="var(--color-brand)" />
        <path fill="#fff" d="M10.5 23a5 5 0 0 1-.6-9.96 7 7 0 0 1 13.46 1.3A4.4 4.4 0 0 1 22.2 23z" />
      </svg>
      <span className="logo__text">{t('common.appName')}</span>
    </span>
  );
}
