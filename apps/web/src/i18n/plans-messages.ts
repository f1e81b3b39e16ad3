// Adds the plan picker's texts to i18n. Imported by the plan picker page only, so the home page
// does not download them. The error catalogue (error-messages.ts, with the contract's zod schemas)
// comes with the API client, which the plan cards do without (pages/plans/plan-list.ts).
import { i18n } from './i18n.ts';
import { plansEn } from './plans.en.ts';
import { plansLt } from './plans.lt.ts';

i18n.addResourceBundle('en', 'translation', plansEn, true, false);
i18n.addResourceBundle('lt', 'translation', plansLt, true, false);
