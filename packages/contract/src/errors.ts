// Every error the API can answer with: a stable `detail` code, its HTTP status, and the text a
// person reads in each language. The server fills `message` from here in the caller's language;
// the web app loads the same catalogue into i18n, so both always say the same words.
import { z } from 'zod';
import { text } from './strings.ts';
import type { Language } from './constants.ts';
import {
  FEATURE_ERROR_STATUS,
  featureErrorTexts,
  type FeatureErrorCode,
  type FeatureFieldErrorCode,
} from './features/catalogues.ts';

export const fieldErrorSchema = z.object({
  field: text(),
  code: text(),
  message: text(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const errorResponseSchema = z.object({
  detail: text(),
  message: text(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * Request-level errors that belong to no one workspace feature (accounts, orders, services, nodes);
 * each feature declares its own in its catalogue (features/<feature>/<feature>.catalogue.ts).
 */
export const SHARED_ERROR_STATUS = {
  validation_error: 422,
  invalid_characters: 422,
  invalid_json: 400,
  bad_request: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  csrf_invalid: 403,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  too_many_attempts: 429,
  too_many_registrations: 429,
  invalid_credentials: 401,
  invalid_refresh_token: 401,
  email_not_verified: 403,
  account_disabled: 403,
  email_registered: 409,
  verification_link_invalid: 400,
  reset_link_invalid: 400,
  invalid_current_password: 422,
  password_not_set: 409,
  same_email: 422,
  email_taken: 409,
  email_change_link_invalid: 400,
  session_not_found: 404,
  already_business: 409,
  not_business_account: 409,
  company_details_locked: 409,
  oauth_failed: 400,
  oauth_provider_disabled: 404,
  order_not_payable: 409,
  invoice_not_payable: 409,
  order_not_cancellable: 409,
  same_configuration: 422,
  plan_does_not_fit: 422,
  downgrade_confirmation_required: 422,
  plan_change_applying: 409,
  node_room_exceeded: 409,
  plan_change_awaiting_room: 409,
  service_expired: 409,
  service_not_changeable: 409,
  workspace_not_changeable: 409,
  storage_folder_not_found: 404,
  node_unreachable: 503,
  node_busy: 503,
  two_factor_required: 401,
  invalid_verification_code: 422,
  two_factor_not_started: 409,
  two_factor_already_enabled: 409,
  two_factor_not_enabled: 409,
  payment_signature_invalid: 400,
  oauth_denied: 403,
  oauth_state_invalid: 400,
  oauth_email_unverified: 403,
  oauth_email_missing: 400,
  service_not_found: 404,
  service_cannot_cancel: 409,
  service_not_active: 409,
  service_suspended: 409,
  no_billing_period: 409,
  service_no_expiry: 409,
  service_unavailable: 503,
  // A node call's failure (NodeCallFailureCode in the API; node_unreachable above), answered by
  // a feature's route through nodeCallError.
  service_not_placed: 409,
  node_not_ready: 409,
  node_unsupported: 501,
  node_call_failed: 502,
  server_error: 500,
} as const;
export type ErrorCode = keyof typeof SHARED_ERROR_STATUS | FeatureErrorCode;

/** Request-level errors: the `detail` of an error response, with its HTTP status. */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  ...SHARED_ERROR_STATUS,
  ...FEATURE_ERROR_STATUS,
};

/**
 * Field-level codes. A contract schema names one of these as its custom message
 * (`text().min(8, 'password_too_short')`), so the same schema gives the same words on the
 * server and in a form. Generic codes cover schemas that name none.
 */
export type FieldErrorCode =
  | FeatureFieldErrorCode
  | 'required'
  | 'invalid_type'
  | 'too_short'
  | 'too_long'
  | 'too_small'
  | 'too_big'
  | 'invalid_format'
  | 'invalid_email'
  | 'invalid_value'
  | 'invalid_characters'
  | 'unknown_field'
  | 'invalid_theme'
  | 'invalid_language'
  | 'password_too_short'
  | 'password_too_long'
  | 'password_needs_lowercase'
  | 'password_needs_uppercase'
  | 'password_needs_number'
  | 'passwords_do_not_match'
  | 'name_too_short'
  | 'invalid_country'
  | 'invalid_vat_number'
  | 'invalid_vat_checksum'
  | 'vat_country_mismatch'
  | 'invalid_company_code'
  | 'invalid_phone'
  | 'business_details_required'
  | 'not_integer'
  | 'below_included'
  | 'above_max'
  | 'not_multiple_of_unit'
  | 'option_not_offered'
  | 'period_required'
  | 'period_unknown'
  | 'below_users_in_use'
  | 'below_vpn_users_in_use'
  | 'below_backup_clients_in_use'
  | 'below_disk_in_use'
  | 'above_node_room'
  | 'listed_twice'
  | 'storage_path_invalid'
  | 'storage_path_reserved'
  | 'two_factor_code_format'
  | 'unsupported_grant_type'
  | 'webhook_url_not_public';

type Catalogue = Record<ErrorCode | FieldErrorCode, string>;
type SharedCatalogue = Omit<Catalogue, FeatureErrorCode | FeatureFieldErrorCode>;

const en: SharedCatalogue = {
  validation_error: 'Some fields are not valid. Please correct them and try again.',
  invalid_json: 'The request could not be read: its body is not valid JSON.',
  bad_request: 'The request could not be understood.',
  unsupported_media_type: 'The request body has a format the server does not accept.',
  payload_too_large: 'The request is too large.',
  csrf_invalid: 'Your security token is missing or out of date. Reload the page and try again.',
  unauthorized: 'Please sign in to continue.',
  forbidden: 'You do not have permission to do that.',
  not_found: 'Not found',
  too_many_attempts: 'Too many attempts. Please wait a moment and try again.',
  too_many_registrations: 'Too many registrations from your network. Please try again later.',
  service_not_found: 'Service not found',
  service_cannot_cancel: 'Cannot cancel or terminate in the current state',
  service_not_active: 'Service not active or not suspended',
  service_suspended: 'This service is suspended. Please contact support or pay to reactivate it.',
  no_billing_period: 'No billing period set',
  service_no_expiry: 'Service has no valid expiration date',
  service_unavailable: 'The service is temporarily unavailable. Please try again later.',
  service_not_placed: 'The service is not on a storage node yet. Please try again in a few minutes.',
  node_not_ready: 'The storage node has not applied the latest changes yet. Please try again in a minute.',
  node_unsupported: 'The storage node cannot do this yet. Please contact support.',
  node_call_failed: 'The storage node could not do this. Please try again later or contact support.',
  server_error: 'Server error. Please try again later',
  required: 'This field is required',
  invalid_type: 'This value has the wrong type',
  too_short: 'Must be at least {{minimum}} characters',
  too_long: 'Must be at most {{maximum}} characters',
  too_small: 'Must be at least {{minimum}}',
  too_big: 'Must be at most {{maximum}}',
  invalid_format: 'This value has the wrong format',
  invalid_email: 'Please enter a valid email address',
  invalid_value: 'This value is not allowed',
  invalid_characters:
    'This text contains characters that cannot be saved (a null byte or a broken character)',
  unknown_field: 'This field is not expected',
  invalid_theme: 'Invalid theme selection',
  invalid_language: 'Invalid language selection',
  invalid_credentials: 'Invalid email or password',
  invalid_refresh_token: 'Your session has ended. Please sign in again.',
  email_not_verified: 'Please verify your email address before logging in',
  account_disabled: 'Your account has been disabled. Please contact support.',
  email_registered: 'This email is already registered and verified. Please sign in instead.',
  verification_link_invalid:
    'Failed to verify your email. The verification link may have expired or is invalid.',
  reset_link_invalid: 'Failed to reset password. The link may have expired or is invalid.',
  invalid_current_password: 'The current password is not right',
  password_not_set:
    'This account signs in through a provider and has no password yet. To set one, use “Forgot password?” on the sign-in page.',
  same_email: 'This is already your email address',
  email_taken: 'This email address is already used by another account',
  email_change_link_invalid:
    'Failed to change your email. The link may have expired, been used already or been replaced by a newer one.',
  session_not_found: 'This session has already ended or does not exist.',
  already_business: 'This account is already a business account. Contact support to change business details.',
  not_business_account: 'Only a business account has company details to correct.',
  company_details_locked:
    'Company details cannot be changed once an invoice has been issued to them. Contact support to change them.',
  oauth_failed: 'An error occurred during authentication. Please try again.',
  oauth_provider_disabled: 'Signing in with this provider is not available.',
  order_not_payable: 'This order cannot be paid now: it is already paid, cancelled or being paid.',
  invoice_not_payable: 'This invoice cannot be paid: it is paid already or void.',
  order_not_cancellable:
    'This order is already paid, so it cannot be cancelled. Manage what it bought from Services.',
  same_configuration: 'Please select different resources or a different plan',
  plan_does_not_fit:
    'The chosen plan is smaller than what the service uses now. Please select different resources or a different plan',
  downgrade_confirmation_required:
    'Please confirm the downgrade: no credit is given if you upgrade back later.',
  plan_change_applying:
    'The last plan change is still being applied to the workspace. Please try again in a minute',
  node_room_exceeded:
    'The storage node of this workspace has no room for that much more disk now. Choose a smaller size, or pay and wait for room.',
  plan_change_awaiting_room:
    'Your paid plan change is waiting for room on the storage node. It is applied as soon as room frees up.',
  service_expired: 'This service has expired or is quarantined. Please extend your service to regain access.',
  service_not_changeable: 'The plan of this service cannot be changed in its current state.',
  workspace_not_changeable:
    'This service is not running, so its users, groups and shares cannot be changed now. Please contact support or pay to reactivate it.',
  storage_folder_not_found: 'This folder is not in the service’s storage.',
  node_unreachable: 'The storage node did not answer in time. Please try again in a minute.',
  node_busy: 'The storage node is busy right now. Please try again in a minute.',
  two_factor_required: 'Two-factor authentication is required',
  invalid_verification_code: 'Invalid verification code',
  two_factor_not_started: 'Start the two-factor set-up first: it makes the secret the code comes from.',
  two_factor_already_enabled:
    'Two-factor authentication is already on. Turn it off first to set it up again.',
  two_factor_not_enabled: 'Two-factor authentication is off, so there are no backup codes to renew.',
  payment_signature_invalid: 'The payment event could not be verified.',
  oauth_denied: 'The sign-in was cancelled or access was not allowed.',
  oauth_state_invalid: 'The sign-in link has expired or was already used. Please try again.',
  oauth_email_unverified:
    'The provider has not verified your email address. Verify it there, or sign in with your email and password.',
  oauth_email_missing:
    'The provider did not share an email address. Allow access to your email address, or register with email and password.',
  password_too_short: 'Password must be at least 8 characters',
  password_too_long: 'Password must be at most 128 characters',
  password_needs_lowercase: 'Password must contain a lowercase letter',
  password_needs_uppercase: 'Password must contain an uppercase letter',
  password_needs_number: 'Password must contain a number',
  passwords_do_not_match: 'Passwords do not match',
  name_too_short: 'Must be at least 2 characters',
  invalid_country: 'Country code must be 2 letters',
  invalid_vat_number: 'The VAT number format is invalid',
  invalid_vat_checksum:
    'This is not a valid VAT number: its check digits do not match. Please check it for a typo',
  vat_country_mismatch: 'The VAT number must be of the company’s country (its prefix, EL for Greece)',
  invalid_company_code: 'This is not a company code of the chosen country: check its digits',
  invalid_phone: 'Enter a phone number: 6 to 20 digits, with spaces, +, - or parentheses if you like',
  business_details_required: 'Business name, code, address and country are required for a business account',
  not_integer: 'Must be a whole number',
  below_included: 'Cannot be less than the plan includes ({{limit}})',
  above_max: 'Cannot be more than {{limit}}',
  not_multiple_of_unit: 'Must be a multiple of {{limit}}',
  option_not_offered: 'This plan cannot be extended this way',
  period_required: 'Please choose a billing period',
  period_unknown: 'This billing period is not offered for the plan',
  below_users_in_use:
    'Cannot be fewer than the {{limit}} active users the service has now (deactivate users first)',
  below_vpn_users_in_use:
    'Cannot be fewer than the {{limit}} VPN users the service has now (delete VPN users first)',
  below_backup_clients_in_use:
    'Cannot be fewer than the {{limit}} backup clients the service has now (delete backup clients first)',
  below_disk_in_use: 'Cannot be less than the {{limit}} GB the service stores now',
  above_node_room: 'The workspace’s storage node has room for up to {{limit}} GB more now',
  listed_twice: 'This name is listed more than once',
  storage_path_invalid: 'Choose a file or folder of the storage',
  storage_path_reserved: 'This folder belongs to the storage node and cannot be shared',
  two_factor_code_format: 'Enter the 6-digit code from the app, or a backup code',
  unsupported_grant_type: 'Only the password grant is supported (grant_type=password)',
};

const lt: SharedCatalogue = {
  validation_error: 'Kai kurie laukai neteisingi. Pataisykite juos ir bandykite dar kartą.',
  invalid_json: 'Užklausos nepavyko perskaityti: jos turinys nėra tinkamas JSON.',
  bad_request: 'Užklausa nesuprantama.',
  unsupported_media_type: 'Užklausos turinio formato serveris nepriima.',
  payload_too_large: 'Užklausa per didelė.',
  csrf_invalid: 'Trūksta saugos žetono arba jis pasenęs. Perkraukite puslapį ir bandykite dar kartą.',
  unauthorized: 'Prisijunkite, kad galėtumėte tęsti.',
  forbidden: 'Neturite teisės to daryti.',
  not_found: 'Nerasta',
  too_many_attempts: 'Per daug bandymų. Šiek tiek palaukite ir bandykite dar kartą.',
  too_many_registrations: 'Per daug registracijų iš jūsų tinklo. Bandykite dar kartą vėliau.',
  service_not_found: 'Paslauga nerasta',
  service_cannot_cancel: 'Dabartinėje būsenoje atšaukti ar nutraukti negalima',
  service_not_active: 'Paslauga nėra aktyvi arba nėra sustabdyta',
  service_suspended:
    'Ši paslauga sustabdyta. Susisiekite su pagalbos tarnyba arba sumokėkite, kad ją vėl aktyvuotumėte.',
  no_billing_period: 'Atsiskaitymo laikotarpis nenustatytas',
  service_no_expiry: 'Paslauga neturi galiojančios pabaigos datos',
  service_unavailable: 'Paslauga laikinai nepasiekiama. Bandykite vėliau.',
  service_not_placed: 'Paslauga dar neįdiegta saugojimo mazge. Bandykite dar kartą po kelių minučių.',
  node_not_ready: 'Saugojimo mazgas dar nepritaikė naujausių pakeitimų. Bandykite dar kartą po minutės.',
  node_unsupported: 'Saugojimo mazgas to dar negali atlikti. Susisiekite su pagalbos tarnyba.',
  node_call_failed:
    'Saugojimo mazgui to padaryti nepavyko. Bandykite vėliau arba susisiekite su pagalbos tarnyba.',
  server_error: 'Serverio klaida. Bandykite vėliau',
  required: 'Šis laukas privalomas',
  invalid_type: 'Šios reikšmės tipas netinkamas',
  too_short: 'Turi būti bent {{minimum}} simbolių',
  too_long: 'Turi būti ne daugiau kaip {{maximum}} simbolių',
  too_small: 'Turi būti ne mažiau kaip {{minimum}}',
  too_big: 'Turi būti ne daugiau kaip {{maximum}}',
  invalid_format: 'Netinkamas reikšmės formatas',
  invalid_email: 'Įveskite teisingą el. pašto adresą',
  invalid_value: 'Ši reikšmė neleidžiama',
  invalid_characters:
    'Tekste yra simbolių, kurių negalima išsaugoti (nulinis baitas arba sugadintas simbolis)',
  unknown_field: 'Šis laukas nenumatytas',
  invalid_theme: 'Netinkamas temos pasirinkimas',
  invalid_language: 'Netinkamas kalbos pasirinkimas',
  invalid_credentials: 'Neteisingas el. paštas arba slaptažodis',
  invalid_refresh_token: 'Jūsų sesija baigėsi. Prisijunkite iš naujo.',
  email_not_verified: 'Prieš prisijungdami patvirtinkite savo el. pašto adresą',
  account_disabled: 'Jūsų paskyra išjungta. Susisiekite su pagalbos tarnyba.',
  email_registered: 'Šis el. paštas jau užregistruotas ir patvirtintas. Prisijunkite.',
  verification_link_invalid:
    'Nepavyko patvirtinti el. pašto. Patvirtinimo nuoroda gali būti pasibaigusi arba netinkama.',
  reset_link_invalid: 'Nepavyko atkurti slaptažodžio. Nuoroda gali būti pasibaigusi arba netinkama.',
  invalid_current_password: 'Dabartinis slaptažodis neteisingas',
  password_not_set:
    'Ši paskyra jungiasi per paslaugų teikėją ir dar neturi slaptažodžio. Norėdami jį nustatyti, prisijungimo puslapyje pasirinkite „Pamiršote slaptažodį?“.',
  same_email: 'Tai jau yra jūsų el. pašto adresas',
  email_taken: 'Šis el. pašto adresas jau naudojamas kitos paskyros',
  email_change_link_invalid:
    'Nepavyko pakeisti el. pašto adreso. Nuoroda gali būti pasibaigusi, jau panaudota arba pakeista naujesne.',
  session_not_found: 'Šis seansas jau baigtas arba neegzistuoja.',
  already_business:
    'Ši paskyra jau yra verslo paskyra. Norėdami pakeisti įmonės duomenis, susisiekite su pagalbos tarnyba.',
  not_business_account: 'Įmonės duomenis taisyti galima tik verslo paskyroje.',
  company_details_locked:
    'Įmonės duomenų pakeisti negalima, kai jiems jau išrašyta sąskaita faktūra. Norėdami juos pakeisti, susisiekite su pagalbos tarnyba.',
  oauth_failed: 'Autentifikuojant įvyko klaida. Bandykite dar kartą.',
  oauth_provider_disabled: 'Prisijungimas per šį tiekėją negalimas.',
  order_not_payable: 'Šio užsakymo dabar apmokėti negalima: jis jau apmokėtas, atšauktas arba apmokamas.',
  invoice_not_payable: 'Šios sąskaitos apmokėti negalima: ji jau apmokėta arba anuliuota.',
  order_not_cancellable:
    'Šis užsakymas jau apmokėtas, todėl jo atšaukti negalima. Tai, ką jis nupirko, tvarkykite skiltyje „Paslaugos“.',
  same_configuration: 'Pasirinkite kitus išteklius arba kitą planą',
  plan_does_not_fit:
    'Pasirinktas planas mažesnis, nei paslauga dabar naudoja. Pasirinkite kitus išteklius arba kitą planą',
  downgrade_confirmation_required:
    'Patvirtinkite plano sumažinimą: jei vėliau planą vėl padidinsite, kreditas nebus suteiktas.',
  plan_change_applying: 'Ankstesnis plano keitimas dar taikomas darbo vietai. Bandykite dar kartą po minutės',
  node_room_exceeded:
    'Šios darbo vietos saugojimo mazge dabar nėra vietos tiek papildomos disko vietos. Pasirinkite mažesnį dydį arba sumokėkite ir palaukite, kol vietos atsiras.',
  plan_change_awaiting_room:
    'Jūsų apmokėtas plano keitimas laukia vietos saugojimo mazge. Jis bus pritaikytas, kai tik vietos atsiras.',
  service_expired:
    'Šios paslaugos galiojimas baigėsi arba ji karantine. Pratęskite paslaugą, kad vėl galėtumėte ja naudotis.',
  service_not_changeable: 'Šios paslaugos plano dabartinėje būsenoje pakeisti negalima.',
  workspace_not_changeable:
    'Ši paslauga neveikia, todėl jos naudotojų, grupių ir bendrinamų aplankų dabar keisti negalima. Susisiekite su pagalbos tarnyba arba sumokėkite, kad ją vėl aktyvintumėte.',
  storage_folder_not_found: 'Šio aplanko paslaugos saugykloje nėra.',
  node_unreachable: 'Saugojimo mazgas laiku neatsakė. Bandykite dar kartą po minutės.',
  node_busy: 'Saugojimo mazgas dabar užimtas. Bandykite dar kartą po minutės.',
  two_factor_required: 'Reikalingas dviejų veiksnių autentifikavimas',
  invalid_verification_code: 'Neteisingas patvirtinimo kodas',
  two_factor_not_started:
    'Pirmiau pradėkite dviejų veiksnių sąranką: ji sukuria paslaptį, iš kurios gaunamas kodas.',
  two_factor_already_enabled:
    'Dviejų veiksnių autentifikavimas jau įjungtas. Norėdami nustatyti iš naujo, pirmiau jį išjunkite.',
  two_factor_not_enabled:
    'Dviejų veiksnių autentifikavimas išjungtas, todėl atsarginių kodų atnaujinti nėra ko.',
  payment_signature_invalid: 'Mokėjimo įvykio patvirtinti nepavyko.',
  oauth_denied: 'Prisijungimas atšauktas arba prieiga neleista.',
  oauth_state_invalid: 'Prisijungimo nuoroda nebegalioja arba jau panaudota. Bandykite dar kartą.',
  oauth_email_unverified:
    'Tiekėjas nepatvirtino jūsų el. pašto adreso. Patvirtinkite jį ten arba prisijunkite el. paštu ir slaptažodžiu.',
  oauth_email_missing:
    'Tiekėjas nepateikė el. pašto adreso. Leiskite pasiekti savo el. pašto adresą arba užsiregistruokite el. paštu ir slaptažodžiu.',
  password_too_short: 'Slaptažodį turi sudaryti bent 8 simboliai',
  password_too_long: 'Slaptažodį gali sudaryti ne daugiau kaip 128 simboliai',
  password_needs_lowercase: 'Slaptažodyje turi būti mažoji raidė',
  password_needs_uppercase: 'Slaptažodyje turi būti didžioji raidė',
  password_needs_number: 'Slaptažodyje turi būti skaičius',
  passwords_do_not_match: 'Slaptažodžiai nesutampa',
  name_too_short: 'Turi būti bent 2 simboliai',
  invalid_country: 'Šalies kodą turi sudaryti 2 raidės',
  invalid_vat_number: 'Netinkamas PVM mokėtojo kodo formatas',
  invalid_vat_checksum:
    'Tai netinkamas PVM mokėtojo kodas: nesutampa kontroliniai skaitmenys. Patikrinkite, ar nėra klaidos',
  vat_country_mismatch: 'PVM mokėtojo kodas turi būti įmonės šalies (jos priešdėlis, Graikijos – EL)',
  invalid_company_code: 'Tai ne pasirinktos šalies įmonės kodas: patikrinkite skaitmenis',
  invalid_phone: 'Įveskite telefono numerį: nuo 6 iki 20 skaitmenų, galima su tarpais, +, - ar skliaustais',
  business_details_required: 'Verslo paskyrai būtini įmonės pavadinimas, kodas, adresas ir šalis',
  not_integer: 'Turi būti sveikasis skaičius',
  below_included: 'Negali būti mažiau, nei įeina į planą ({{limit}})',
  above_max: 'Negali būti daugiau kaip {{limit}}',
  not_multiple_of_unit: 'Turi būti {{limit}} kartotinis',
  option_not_offered: 'Šio plano taip išplėsti negalima',
  period_required: 'Pasirinkite atsiskaitymo laikotarpį',
  period_unknown: 'Šis atsiskaitymo laikotarpis plane nesiūlomas',
  below_users_in_use:
    'Negali būti mažiau nei {{limit}} aktyvių naudotojų, kuriuos paslauga turi dabar (pirmiausia išjunkite naudotojus)',
  below_vpn_users_in_use:
    'Negali būti mažiau nei {{limit}} VPN naudotojų, kuriuos paslauga turi dabar (pirmiausia ištrinkite VPN naudotojus)',
  below_backup_clients_in_use:
    'Negali būti mažiau nei {{limit}} atsarginių kopijų klientų, kuriuos paslauga turi dabar (pirmiausia ištrinkite klientus)',
  below_disk_in_use: 'Negali būti mažiau nei {{limit}} GB, kuriuos paslauga dabar saugo',
  above_node_room: 'Darbo vietos saugojimo mazge dabar yra vietos dar ne daugiau kaip {{limit}} GB',
  listed_twice: 'Šis pavadinimas nurodytas daugiau nei kartą',
  storage_path_invalid: 'Pasirinkite saugyklos failą ar aplanką',
  storage_path_reserved: 'Šis aplankas priklauso saugyklos mazgui, juo dalytis negalima',
  two_factor_code_format: 'Įveskite 6 skaitmenų kodą iš programėlės arba atsarginį kodą',
  unsupported_grant_type: 'Palaikomas tik slaptažodžio suteikimo būdas (grant_type=password)',
};

export const errorMessages: Record<Language, Catalogue> = {
  en: { ...en, ...featureErrorTexts('en') },
  lt: { ...lt, ...featureErrorTexts('lt') },
};

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}

export function isMessageCode(code: string): code is ErrorCode | FieldErrorCode {
  return Object.hasOwn(errorMessages.en, code);
}

/** The text of a code in a language, with `{{name}}` placeholders filled (i18next syntax). */
export function errorText(
  language: Language,
  code: ErrorCode | FieldErrorCode,
  values: Record<string, string | number> = {},
): string {
  return errorMessages[language][code].replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
    String(values[name] ?? ''),
  );
}
