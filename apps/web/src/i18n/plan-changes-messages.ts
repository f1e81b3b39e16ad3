// Adds the plans pages' and the plan-change and extension payment pages' texts (with the payment
// pages' and plan picker's, which they build on) to i18n. Imported by those pages only.
import { i18n } from './i18n.ts';
import './orders-messages.ts';
import { planChangesEn } from './plan-changes.en.ts';
import { planChangesLt } from './plan-changes.lt.ts';
import './plans-messages.ts';

i18n.addResourceBundle('en', 'translation', planChangesEn, true, false);
i18n.addResourceBundle('lt', 'translation', planChangesLt, true, false);
