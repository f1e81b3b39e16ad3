// Adds the billing page's texts (and the contract's error catalogue) to i18n. Imported by that
// page only, so the home page downloads neither.
import './error-messages.ts';
import { billingEn } from './billing.en.ts';
import { billingLt } from './billing.lt.ts';
import { i18n } from './i18n.ts';

i18n.addResourceBundle('en', 'translation', billingEn, true, false);
i18n.addResourceBundle('lt', 'translation', billingLt, true, false);
