// Adds the activity page's and the account summary's texts to i18n as their own namespace,
// `activity` (with the services list's status names they build on, in the app's namespace).
// Imported by those components only, so the app's `t()` type does not grow with them.
import { activityEn } from './activity.en.ts';
import { activityLt } from './activity.lt.ts';
import { i18n } from './i18n.ts';
import './orders-messages.ts';

i18n.addResourceBundle('en', 'activity', activityEn, true, false);
i18n.addResourceBundle('lt', 'activity', activityLt, true, false);
