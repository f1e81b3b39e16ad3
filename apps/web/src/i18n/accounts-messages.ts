// Adds the account pages' texts (and the contract's error catalogue) to i18n. Imported by those
// pages and by the session runtime, so the home page downloads neither.
import { accountsEn } from './accounts.en.ts';
import { accountsLt } from './accounts.lt.ts';
import './error-messages.ts';
import { i18n } from './i18n.ts';

i18n.addResourceBundle('en', 'translation', accountsEn, true, false);
i18n.addResourceBundle('lt', 'translation', accountsLt, true, false);
