// Adds the plan picker's texts (and the contract's error catalogue) to i18n. Imported by the plan
// picker page only, so the home page downloads neither.
import './error-messages.ts';
import { i18n } from './i18n.ts';
import { plansEn } from './plans.en.ts';
import { plansLt } from './plans.lt.ts';

i18n.addResourceBundle('en', 'translation', plansEn, true, false);
i18n.addResourceBundle('lt', 'translation', plansLt, true, false);
