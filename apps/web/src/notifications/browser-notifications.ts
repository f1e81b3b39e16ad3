// Browser notifications (spec §3 settings: notifications.browser). While a dashboard tab is open
// but not looked at, the account's "Browser notifications" setting shows a system notification
// when a workspace becomes ready or a payment completes. The browser's permission is asked only
// when the customer switches the setting on (a click), never on its own.
import { getSessionState } from '../auth/session.ts';

export type BrowserPermission = NotificationPermission | 'unsupported';

export function browserPermission(): BrowserPermission {
  return typeof window.Notification === 'function' ? window.Notification.permission : 'unsupported';
}

/** Asks the browser once, from the click that switched the setting on. */
export async function askBrowserPermission(): Promise<BrowserPermission> {
  const permission = browserPermission();
  if (permission !== 'default') return permission;
  return window.Notification.requestPermission();
}

/** The page is open but not what the customer looks at (another tab, window or app). */
function unattended(): boolean {
  return document.visibilityState === 'hidden' || !document.hasFocus();
}

/**
 * Shows `title` and `body` when the signed-in account wants browser notifications, this browser
 * allows them and the page is not being looked at (on screen, the page says it itself). `tag`
 * names the event, so the same one is never shown twice. Answers whether it was shown.
 */
export function notifyInBrowser(title: string, body: string, tag: string): boolean {
  const { user } = getSessionState();
  if (!user?.notification_browser || browserPermission() !== 'granted' || !unattended()) return false;
  try {
    const notification = new window.Notification(title, { body, tag, lang: document.documentElement.lang });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
    return true;
  } catch {
    // Some mobile browsers allow notifications only from a service worker: nothing to show then.
    return false;
  }
}
