// Adds the service pages' texts to i18n as their own namespace, `workspace` (with the contract's
// error catalogue and the services list's status names they build on, in the app's namespace).
// Imported by those pages only. A namespace of their own keeps the type of the app's `t()`, which
// every page's key is checked against, from growing with each service tab.
import './error-messages.ts';
import { i18n } from './i18n.ts';
import './orders-messages.ts';
import { workspaceEn } from './workspace.en.ts';
import { workspaceLt } from './workspace.lt.ts';

i18n.addResourceBundle('en', 'workspace', workspaceEn, true, false);
i18n.addResourceBundle('lt', 'workspace', workspaceLt, true, false);
