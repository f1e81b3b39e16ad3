// Adds the public site's page texts to i18n as their own namespace, `public` (with the contract's
// error catalogue, which the contact form's messages come from). Imported by those pages only, so
// the home page does not download the documentation and legal texts.
import './error-messages.ts';
import { i18n } from './i18n.ts';
import { publicEn } from './public.en.ts';
import { publicLt } from './public.lt.ts';

i18n.addResourceBundle('en', 'public', publicEn, true, false);
i18n.addResourceBundle('lt', 'public', publicLt, true, false);
