// A value a customer copies into another program (an address, a port, a DN): shown as code, with
// a button that puts it on the clipboard and says so. The value breaks anywhere rather than make
// a phone's page scroll sideways (data-table.css).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import './data-table.css';

export function CopyValue({ value, what, testId }: { value: string; what: string; testId: string }) {
  const { t } = useTranslation('workspace');
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy-value">
      <code data-testid={testId}>{value}</code>{' '}
      <button
        type="button"
        className="btn btn--secondary btn--small"
        aria-label={t('resource.copyLabel', { what })}
        data-testid={`${testId}-copy`}
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => setCopied(true));
        }}
      >
        {copied ? t('resource.copied') : t('resource.copy')}
      </button>
    </span>
  );
}
