// The "Browser notifications" setting: the account's choice, and whether this browser lets the
// dashboard show them. Switching it on asks the browser (the only time it is asked, from the
// click); what the browser answered is said under the box, with the way to allow it.
import type { ChangeEvent } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckboxField } from '../../components/form/fields.tsx';
import {
  askBrowserPermission,
  browserPermission,
  type BrowserPermission,
} from '../../notifications/browser-notifications.ts';

export function BrowserNotificationsField({
  checked,
  disabled,
  onChange,
}: {
  checked: boolean;
  disabled: boolean;
  onChange: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  const [permission, setPermission] = useState<BrowserPermission>(browserPermission);
  const ask = () => void askBrowserPermission().then(setPermission);

  function toggle(event: ChangeEvent<HTMLInputElement>): void {
    onChange(event.target.checked);
    if (event.target.checked) ask();
  }

  return (
    <div>
      <CheckboxField
        id="settings-notifications-browser"
        label={t('settings.notifications.browser')}
        hint={t('settings.notifications.browserHint')}
        checked={checked}
        disabled={disabled}
        onChange={toggle}
        data-testid="settings-notifications-browser"
      />
      {checked && permission !== 'granted' && (
        <p className="text-muted settings-permission" role="status" data-testid="settings-browser-permission">
          {permission === 'default' && (
            <>
              {t('settings.notifications.browserNotAllowed')}{' '}
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={ask}
                data-testid="settings-browser-allow"
              >
                {t('settings.notifications.browserAllow')}
              </button>
            </>
          )}
          {permission === 'denied' && t('settings.notifications.browserBlocked')}
          {permission === 'unsupported' && t('settings.notifications.browserUnsupported')}
        </p>
      )}
    </div>
  );
}
