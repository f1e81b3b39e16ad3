// A still picture of the dashboard next to the hero, built from markup so it stays sharp and
// translated. The public-site issue turns it into the rotating demo of spec §2.
import { useTranslation } from 'react-i18next';

export function WorkspacePreview() {
  const { t } = useTranslation();
  return (
    <div className="preview" role="img" aria-label={t('home.preview.label')}>
      <div className="preview__window">
        <div className="preview__chrome" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <div className="preview__body">
          <div className="preview__head">
            <div>
              <p className="preview__name">{t('home.preview.workspace')}</p>
              <p className="preview__plan">{t('home.preview.plan')}</p>
            </div>
            <span className="badge badge--success">{t('home.preview.status')}</span>
          </div>
          <div className="preview__meters">
            <Meter label={t('home.preview.storage')} value={t('home.preview.storageUsed')} percent={37} />
            <Meter label={t('home.preview.users')} value={t('home.preview.usersUsed')} percent={80} />
          </div>
          <p className="preview__section">{t('home.preview.services')}</p>
          <ul className="preview__services">
            <li>
              <span>{t('home.preview.samba')}</span>
              <span className="status status--ok">{t('home.preview.running')}</span>
            </li>
            <li>
              <span>{t('home.preview.vpn')}</span>
              <span className="status status--ok">{t('home.preview.connected')}</span>
            </li>
            <li>
              <span>{t('home.preview.backups')}</span>
              <span className="status status--info">{t('home.preview.lastBackup')}</span>
            </li>
          </ul>
        </div>
      </div>
    </div>
  );
}

function Meter({ label, value, percent }: { label: string; value: string; percent: number }) {
  return (
    <div className="meter">
      <div className="meter__labels">
        <span>{label}</span>
        <span>{value}</span>
      </div>
      <div className="meter__track">
        <div className="meter__fill" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
