// Adds the payment pages' and services list's texts (and the contract's error catalogue) to
// i18n. Imported by those pages only, so the home page downloads neither.
import './error-messages.ts';
import { i18n } from './i18n.ts';
import { ordersEn } from './orders.en.ts';
import { ordersLt } from './orders.lt.ts';

i18n.addResourceBundle('en', 'translation', ordersEn, true, false);
i18n.addResourceBundle('lt', 'translation', ordersLt, true, false);
