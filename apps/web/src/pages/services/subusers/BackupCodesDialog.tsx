// A subuser's backup codes, shown the one time the server answers them: copy them all, or save
// them as a text file.
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/dialog/Dialog.tsx';

export function BackupCodesDialog({
  name,
  codes,
  onClose,
}: {
  name: string;
  codes: string[];
  onClose: () => void;
}) {
  const { t } = useTranslation('subusersTab');
  const text = `${codes.join('\n')}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `${name}-backup-codes.txt`;
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Dialog title={t('twoFactor.codesTitle', { name })} onClose={onClose} testId="backup-codes-dialog">
      <p>{t('twoFactor.codesLead')}</p>
      <ol className="subusers__backup-codes" data-testid="backup-codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="button-row">
        <button
          type="button"
          className="btn btn--secondary"
          onClick={() => void navigator.clipboard?.writeText(text)}
        >
          {t('twoFactor.copyCodes')}
        </button>
        <button type="button" className="btn btn--secondary" onClick={download}>
          {t('twoFactor.download')}
        </button>
        <button type="button" className="btn btn--primary" onClick={onClose} data-testid="backup-codes-done">
          {t('twoFactor.done')}
        </button>
      </div>
    </Dialog>
  );
}
