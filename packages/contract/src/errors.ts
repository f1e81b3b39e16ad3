// Every error the API can answer with: a stable `detail` code, its HTTP status, and the text a
// person reads in each language. The server fills `message` from here in the caller's language;
// the web app loads the same catalogue into i18n, so both always say the same words.
import { z } from 'zod';
import { text } from './strings.ts';
import type { Language } from './constants.ts';

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

/** Request-level errors: the `detail` of an error response. */
export const ERROR_STATUS = {
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
  workspace_user_not_found: 404,
  workspace_group_not_found: 404,
  workspace_member_not_found: 404,
  samba_share_not_found: 404,
  samba_share_user_not_found: 404,
  workspace_user_exists: 409,
  workspace_group_exists: 409,
  samba_share_exists: 409,
  samba_share_user_exists: 409,
  workspace_user_limit: 409,
  workspace_group_limit: 409,
  samba_share_limit: 409,
  workspace_ids_exhausted: 409,
  samba_guest_share_public: 422,
  vpn_user_not_found: 404,
  vpn_user_exists: 409,
  vpn_user_limit: 409,
  vpn_not_placed: 409,
  vpn_user_not_applied: 409,
  vpn_node_failed: 502,
  ldap_user_not_found: 404,
  nfs_export_not_found: 404,
  nfs_export_limit: 409,
  nfs_client_not_found: 404,
  nfs_disconnect_unsupported: 501,
  backup_schedule_not_found: 404,
  backup_schedule_limit: 409,
  backup_schedule_provider_managed: 409,
  backup_session_not_found: 404,
  backup_not_browsable: 409,
  backup_path_not_found: 404,
  backup_client_not_found: 404,
  backup_client_exists: 409,
  backup_client_limit: 409,
  backup_client_revoked: 409,
  share_link_not_found: 404,
  share_link_limit: 409,
  share_link_ip_refused: 403,
  share_link_revoked: 410,
  share_link_expired: 410,
  share_link_over_limit: 410,
  share_link_password_required: 401,
  share_link_wrong_password: 401,
  share_link_unavailable: 404,
  share_link_busy: 503,
  share_link_folder_too_big: 409,
  storage_folder_not_found: 404,
  snapshot_too_soon: 429,
  snapshots_unsupported: 409,
  snapshot_not_found: 404,
  snapshot_path_not_found: 404,
  node_unreachable: 503,
  node_busy: 503,
  webhook_not_set: 404,
  subuser_not_found: 404,
  subuser_exists: 409,
  subuser_limit: 409,
  subuser_disabled: 403,
  subuser_not_allowed: 403,
  subuser_session_required: 403,
  subuser_session_not_found: 404,
  two_factor_required: 401,
  invalid_verification_code: 422,
  two_factor_not_started: 409,
  two_factor_already_enabled: 409,
  two_factor_not_enabled: 409,
  linux_user_not_allowed: 403,
  linux_user_token_required: 403,
  linux_user_inactive: 403,
  linux_user_no_vpn: 404,
  samba_public_ip_not_in_plan: 422,
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
export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Field-level codes. A contract schema names one of these as its custom message
 * (`text().min(8, 'password_too_short')`), so the same schema gives the same words on the
 * server and in a form. Generic codes cover schemas that name none.
 */
export type FieldErrorCode =
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
  | 'workspace_name_characters'
  | 'workspace_name_lowercase'
  | 'workspace_name_start'
  | 'workspace_name_reserved'
  | 'workspace_user_unknown'
  | 'workspace_group_unknown'
  | 'workspace_group_name_taken'
  | 'listed_twice'
  | 'share_path_invalid'
  | 'share_path_reserved'
  | 'share_permissions_need_read'
  | 'samba_workgroup_invalid'
  | 'samba_server_string_invalid'
  | 'vpn_traffic_limit_negative'
  | 'nfs_path_invalid'
  | 'nfs_path_outside'
  | 'nfs_path_exported'
  | 'nfs_client_invalid'
  | 'nfs_client_host_bits'
  | 'nfs_owner_inactive'
  | 'ftp_port_out_of_range'
  | 'ftp_limit_not_positive'
  | 'ftp_passive_range_reversed'
  | 'ftp_passive_range_too_small'
  | 'ftp_per_user_above_max_clients'
  | 'ftp_anonymous_off'
  | 'ldap_date_invalid'
  | 'ldap_date_past'
  | 'ldap_user_unknown'
  | 'ldap_alias_invalid'
  | 'ldap_alias_is_service_id'
  | 'snapshot_path_invalid'
  | 'time_zone_invalid'
  | 'backup_paths_required'
  | 'backup_path_unknown'
  | 'backup_keep_full_min'
  | 'restore_root'
  | 'storage_path_invalid'
  | 'storage_path_reserved'
  | 'share_target_unknown'
  | 'share_ip_rule_invalid'
  | 'share_ip_rule_host_bits'
  | 'share_ip_rules_too_many'
  | 'share_download_limit_invalid'
  | 'two_factor_code_format'
  | 'unsupported_grant_type'
  | 'linux_user_workspace_invalid'
  | 'webhook_url_not_public';

type Catalogue = Record<ErrorCode | FieldErrorCode, string>;

const en: Catalogue = {
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
  workspace_user_not_found: 'There is no user with this name in the service.',
  workspace_group_not_found: 'There is no group with this name in the service.',
  workspace_member_not_found: 'This user is not a member of the group.',
  samba_share_not_found: 'There is no Samba share with this name in the service.',
  samba_share_user_not_found: 'This user has no access to the share.',
  workspace_user_exists: 'The service already has a user with this name.',
  workspace_group_exists: 'The service already has a group with this name.',
  samba_share_exists: 'The service already has a Samba share with this name.',
  samba_share_user_exists: 'This user already has access to the share. Change their permissions instead.',
  workspace_user_limit:
    'The service already has as many active users as its plan allows. Deactivate or delete a user, or choose a plan with more users.',
  workspace_group_limit: 'The service already has as many groups as it can hold. Delete a group first.',
  samba_share_limit: 'The service already has as many Samba shares as it can hold. Delete a share first.',
  workspace_ids_exhausted: 'The service has no free user or group ids left. Please contact support.',
  samba_guest_share_public:
    'A share open to guests cannot be served on the public IP address. Turn off guest access or the public address.',
  vpn_user_not_found: 'There is no VPN user with this id in the service.',
  vpn_user_exists: 'The service already has a VPN user with this name.',
  vpn_user_limit:
    'The service already has as many VPN users as its plan has users. Delete a VPN user, or choose a plan with more users.',
  vpn_not_placed:
    'The VPN is not running yet: the service is still being set up on a storage node. Please try again in a few minutes.',
  vpn_user_not_applied:
    'The storage node does not have this VPN user yet. Please wait until the change is applied and try again.',
  vpn_node_failed: 'The storage node could not do this. Please try again later or contact support.',
  ldap_user_not_found: 'There is no user with this name in the service.',
  nfs_export_not_found: 'There is no NFS export of this folder in the service.',
  nfs_export_limit: 'The service already has as many NFS exports as it can hold. Delete an export first.',
  nfs_client_not_found: 'The NFS server does not know a client with this address.',
  nfs_disconnect_unsupported:
    'The storage node of this service cannot disconnect NFS clients yet. To cut a client off, change the export’s client or delete the export: it applies at once.',
  backup_schedule_not_found: 'There is no backup schedule with this id in the service.',
  backup_schedule_limit:
    'The service already has as many backup schedules as it can hold. Delete a schedule first.',
  backup_schedule_provider_managed:
    'The daily backup is kept by the provider: it can be run now, but not changed, paused or deleted.',
  backup_session_not_found: 'There is no backup with this id in the service.',
  backup_not_browsable:
    'This backup cannot be opened: it has not completed, or its retention has removed it.',
  backup_path_not_found: 'This folder is not in the backup.',
  backup_client_not_found: 'There is no backup client with this id in the service.',
  backup_client_exists:
    'The service already has a VPN login with this name (a VPN user or a backup client). Please choose another.',
  backup_client_limit:
    'The service already has as many backup clients as its plan has users. Delete a backup client, or choose a plan with more users.',
  backup_client_revoked:
    'This backup client is disconnected: its VPN config no longer works. Add a new client instead.',
  share_link_not_found: 'This link does not exist. Check that it was copied whole.',
  share_link_limit: 'The service already has as many share links as it can hold. Delete a link first.',
  share_link_ip_refused: 'This link cannot be opened from your network.',
  share_link_revoked: 'This link was turned off by its owner.',
  share_link_expired: 'This link has expired.',
  share_link_over_limit: 'This link has been downloaded as many times as its owner allowed.',
  share_link_password_required: 'This link is protected. Enter its password to open it.',
  share_link_wrong_password: 'The password is not right.',
  share_link_unavailable: 'What this link shared is no longer there.',
  share_link_busy: 'Too many downloads are running right now. Please try again in a minute.',
  share_link_folder_too_big:
    'This folder holds too many files to download as one zip (more than 100,000). Download the folders inside it one by one.',
  storage_folder_not_found: 'This folder is not in the service’s storage.',
  snapshot_too_soon:
    'A snapshot of this service was taken less than a minute ago. Please wait a moment and try again.',
  snapshots_unsupported:
    'This service’s storage cannot take snapshots yet: it will once it is moved to the new storage.',
  snapshot_not_found: 'This snapshot is no longer kept (older ones are removed as new ones are taken).',
  snapshot_path_not_found: 'This is not in the snapshot.',
  node_unreachable: 'The storage node did not answer in time. Please try again in a minute.',
  node_busy: 'The storage node is busy right now. Please try again in a minute.',
  webhook_not_set: 'No webhook URL is set for alerts.',
  subuser_not_found: 'Subuser not found',
  subuser_exists: 'A subuser with this username already exists in this service.',
  subuser_limit: 'This service has as many subusers as it may have (50). Delete one first.',
  subuser_disabled: 'This subuser is disabled. Ask the service’s owner to enable it.',
  subuser_not_allowed: 'A subuser can work with the backups of its service only.',
  subuser_session_required: 'Sign in as a subuser to continue.',
  subuser_session_not_found: 'This session has already ended.',
  two_factor_required: 'Two-factor authentication is required',
  invalid_verification_code: 'Invalid verification code',
  two_factor_not_started: 'Start the two-factor set-up first: it makes the secret the code comes from.',
  two_factor_already_enabled:
    'Two-factor authentication is already on. Turn it off first to set it up again.',
  two_factor_not_enabled: 'Two-factor authentication is off, so there are no backup codes to renew.',
  linux_user_not_allowed:
    'This is for the workspace’s owner. Workspace users sign in at the Linux-user portal.',
  linux_user_token_required: 'Sign in to the Linux-user portal with your workspace user name to continue.',
  linux_user_inactive: 'This user is deactivated. Ask the workspace’s owner to activate it.',
  linux_user_no_vpn:
    'There is no VPN access for this user. Ask the workspace’s owner for a VPN user of the same name.',
  samba_public_ip_not_in_plan:
    'This plan has a shared (NAT) address: its shares are reachable through the VPN only. Choose a plan with a dedicated IP to serve a share on a public address.',
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
  workspace_name_characters: 'Use only letters, numbers, hyphens and underscores',
  workspace_name_lowercase: 'Use lower-case letters: the name becomes a Unix and Samba name',
  workspace_name_start: 'Must start with a letter',
  workspace_name_reserved: 'This name is reserved by the system. Please choose another',
  workspace_user_unknown: 'There is no user with this name in the service',
  workspace_group_unknown: 'There is no group with this name in the service',
  workspace_group_name_taken: 'Another group of the service already has this name',
  listed_twice: 'This name is listed more than once',
  share_path_invalid:
    'Use a folder inside the service: names of letters, numbers, hyphens and underscores separated by /',
  share_path_reserved: 'This folder is kept for the system (home, backups, system). Please choose another',
  share_permissions_need_read:
    'Write, execute and admin need read permission too. With no permission at all the user is kept out of the share, even through a group',
  samba_workgroup_invalid: 'Use 1 to 15 letters, numbers, hyphens and underscores',
  samba_server_string_invalid: "Use letters, numbers, spaces and . , _ ( ) ' - only",
  vpn_traffic_limit_negative: 'The traffic limit cannot be negative (0 means unlimited)',
  nfs_path_invalid: 'Use folder names of letters, numbers, hyphens and underscores, separated by /',
  nfs_path_outside: 'The folder must be inside the service’s storage: “..” and “.” are not allowed',
  nfs_path_exported: 'This folder is already exported. Edit its export instead',
  nfs_client_invalid: 'Use an IP address (192.168.1.10), a network (192.168.1.0/24) or a hostname',
  nfs_client_host_bits: 'Use the network’s first address, such as 192.168.1.0/24',
  nfs_owner_inactive: 'This user is deactivated. Choose an active user or none',
  ftp_port_out_of_range: 'Use a port from 1024 to 65535',
  ftp_limit_not_positive: 'Must be at least 1',
  ftp_passive_range_reversed: 'The last passive port cannot be below the first',
  ftp_passive_range_too_small:
    'The passive port range needs two ports for each client: widen the range or allow fewer clients',
  ftp_per_user_above_max_clients: 'Cannot be more than the clients allowed in all',
  ftp_anonymous_off: 'Anonymous FTP is never offered',
  ldap_date_invalid: 'Enter a date as YYYY-MM-DD',
  ldap_date_past: 'This date is already over. Choose today or a later day',
  ldap_user_unknown: 'There is no user “{{name}}” in this service',
  ldap_alias_invalid:
    'Use 1 to 63 lower-case letters, numbers and hyphens, not starting or ending with a hyphen',
  ldap_alias_is_service_id: 'This is the directory’s own base name already. Choose another alias',
  snapshot_path_invalid: 'Use a path from the backup’s root, such as /shares/projects/report.txt',
  time_zone_invalid: 'Choose a time zone from the list',
  backup_paths_required: 'Choose at least one folder to back up',
  backup_path_unknown: 'There is no “{{name}}” in this service any more',
  backup_keep_full_min: 'Keep at least one full backup',
  restore_root: 'Choose a file or folder inside the backup, not all of it',
  storage_path_invalid: 'Choose a file or folder of the storage',
  storage_path_reserved: 'This folder belongs to the storage node and cannot be shared',
  share_target_unknown: 'This is not in the service any more. Choose again',
  share_ip_rule_invalid:
    'Enter an IP address or network, such as 203.0.113.7, 192.168.1.0/24 or 2001:db8::/32',
  share_ip_rule_host_bits: 'Use the network’s first address, such as 192.168.1.0/24',
  share_ip_rules_too_many: 'At most 100 addresses or networks',
  share_download_limit_invalid: 'Allow at least one download, or leave it empty for no limit',
  two_factor_code_format: 'Enter the 6-digit code from the app, or a backup code',
  unsupported_grant_type: 'Only the password grant is supported (grant_type=password)',
  linux_user_workspace_invalid: 'Enter the service ID of your workspace, as the owner gave it',
  webhook_url_not_public: 'Enter an address on the public internet (not a private or local one)',
};

const lt: Catalogue = {
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
  workspace_user_not_found: 'Paslaugoje nėra naudotojo tokiu vardu.',
  workspace_group_not_found: 'Paslaugoje nėra grupės tokiu pavadinimu.',
  workspace_member_not_found: 'Šis naudotojas nėra grupės narys.',
  samba_share_not_found: 'Paslaugoje nėra Samba bendrinamo aplanko tokiu pavadinimu.',
  samba_share_user_not_found: 'Šis naudotojas neturi prieigos prie bendrinamo aplanko.',
  workspace_user_exists: 'Paslaugoje jau yra naudotojas tokiu vardu.',
  workspace_group_exists: 'Paslaugoje jau yra grupė tokiu pavadinimu.',
  samba_share_exists: 'Paslaugoje jau yra Samba bendrinamas aplankas tokiu pavadinimu.',
  samba_share_user_exists:
    'Šis naudotojas jau turi prieigą prie bendrinamo aplanko. Verčiau pakeiskite jo teises.',
  workspace_user_limit:
    'Paslaugoje jau tiek aktyvių naudotojų, kiek leidžia jos planas. Išjunkite arba ištrinkite naudotoją arba pasirinkite planą su daugiau naudotojų.',
  workspace_group_limit: 'Paslaugoje jau tiek grupių, kiek ji gali turėti. Pirmiausia ištrinkite grupę.',
  samba_share_limit:
    'Paslaugoje jau tiek Samba bendrinamų aplankų, kiek ji gali turėti. Pirmiausia ištrinkite bendrinamą aplanką.',
  workspace_ids_exhausted:
    'Paslaugoje nebeliko laisvų naudotojų ar grupių identifikatorių. Susisiekite su pagalbos tarnyba.',
  samba_guest_share_public:
    'Svečiams atviro bendrinamo aplanko negalima teikti viešuoju IP adresu. Išjunkite svečių prieigą arba viešąjį adresą.',
  vpn_user_not_found: 'Paslaugoje nėra VPN naudotojo su šiuo identifikatoriumi.',
  vpn_user_exists: 'Paslaugoje jau yra VPN naudotojas tokiu vardu.',
  vpn_user_limit:
    'Paslaugoje jau tiek VPN naudotojų, kiek jos planas turi naudotojų. Ištrinkite VPN naudotoją arba pasirinkite planą su daugiau naudotojų.',
  vpn_not_placed:
    'VPN dar neveikia: paslauga dar diegiama saugojimo mazge. Bandykite dar kartą po kelių minučių.',
  vpn_user_not_applied:
    'Saugojimo mazgas dar neturi šio VPN naudotojo. Palaukite, kol pakeitimas bus pritaikytas, ir bandykite dar kartą.',
  vpn_node_failed:
    'Saugojimo mazgui to padaryti nepavyko. Bandykite vėliau arba susisiekite su pagalbos tarnyba.',
  ldap_user_not_found: 'Paslaugoje nėra naudotojo tokiu vardu.',
  nfs_export_not_found: 'Paslaugoje nėra šio aplanko NFS eksporto.',
  nfs_export_limit: 'Paslaugoje jau tiek NFS eksportų, kiek ji gali turėti. Pirmiausia ištrinkite eksportą.',
  nfs_client_not_found: 'NFS serveris nežino kliento tokiu adresu.',
  nfs_disconnect_unsupported:
    'Šios paslaugos saugojimo mazgas dar negali atjungti NFS klientų. Norėdami atjungti klientą, pakeiskite eksporto klientą arba ištrinkite eksportą: tai įsigalioja iš karto.',
  backup_schedule_not_found: 'Paslaugoje nėra atsarginių kopijų plano su šiuo ID.',
  backup_schedule_limit:
    'Paslauga jau turi tiek atsarginių kopijų planų, kiek gali. Pirmiausia ištrinkite planą.',
  backup_schedule_provider_managed:
    'Kasdienę atsarginę kopiją prižiūri teikėjas: ją galima paleisti dabar, bet negalima keisti, pristabdyti ar ištrinti.',
  backup_session_not_found: 'Paslaugoje nėra atsarginės kopijos su šiuo ID.',
  backup_not_browsable:
    'Šios atsarginės kopijos atverti negalima: ji nebaigta arba ją jau pašalino saugojimo taisyklė.',
  backup_path_not_found: 'Šio aplanko atsarginėje kopijoje nėra.',
  backup_client_not_found: 'Paslaugoje nėra atsarginių kopijų kliento su šiuo ID.',
  backup_client_exists:
    'Paslaugoje jau yra VPN prisijungimas tokiu vardu (VPN naudotojas arba atsarginių kopijų klientas). Pasirinkite kitą.',
  backup_client_limit:
    'Paslaugoje jau tiek atsarginių kopijų klientų, kiek jos planas turi naudotojų. Ištrinkite klientą arba pasirinkite planą su daugiau naudotojų.',
  backup_client_revoked:
    'Šis atsarginių kopijų klientas atjungtas: jo VPN konfigūracija nebeveikia. Vietoj jo pridėkite naują klientą.',
  share_link_not_found: 'Tokios nuorodos nėra. Patikrinkite, ar ji nukopijuota visa.',
  share_link_limit:
    'Paslaugoje jau tiek bendrinimo nuorodų, kiek ji gali turėti. Pirmiausia ištrinkite nuorodą.',
  share_link_ip_refused: 'Šios nuorodos negalima atverti iš jūsų tinklo.',
  share_link_revoked: 'Šią nuorodą jos savininkas išjungė.',
  share_link_expired: 'Šios nuorodos galiojimas baigėsi.',
  share_link_over_limit: 'Ši nuoroda jau atsisiųsta tiek kartų, kiek leido jos savininkas.',
  share_link_password_required: 'Ši nuoroda apsaugota. Įveskite jos slaptažodį.',
  share_link_wrong_password: 'Slaptažodis neteisingas.',
  share_link_unavailable: 'To, kuo buvo dalijamasi šia nuoroda, nebėra.',
  share_link_busy: 'Šiuo metu vyksta per daug atsisiuntimų. Bandykite dar kartą po minutės.',
  share_link_folder_too_big:
    'Šiame aplanke per daug failų, kad jį būtų galima atsisiųsti vienu zip (daugiau nei 100 000). Atsisiųskite jo aplankus po vieną.',
  storage_folder_not_found: 'Šio aplanko paslaugos saugykloje nėra.',
  snapshot_too_soon:
    'Šios paslaugos momentinė kopija padaryta mažiau nei prieš minutę. Šiek tiek palaukite ir bandykite dar kartą.',
  snapshots_unsupported:
    'Šios paslaugos saugykla kol kas negali daryti momentinių kopijų: galės, kai bus perkelta į naują saugyklą.',
  snapshot_not_found: 'Ši momentinė kopija nebesaugoma (senesnės šalinamos, kai daromos naujos).',
  snapshot_path_not_found: 'To momentinėje kopijoje nėra.',
  node_unreachable: 'Saugojimo mazgas laiku neatsakė. Bandykite dar kartą po minutės.',
  node_busy: 'Saugojimo mazgas dabar užimtas. Bandykite dar kartą po minutės.',
  webhook_not_set: 'Įspėjimų webhook adresas nenustatytas.',
  subuser_not_found: 'Papildomas naudotojas nerastas',
  subuser_exists: 'Papildomas naudotojas tokiu vardu šioje paslaugoje jau yra.',
  subuser_limit: 'Ši paslauga jau turi tiek papildomų naudotojų, kiek gali (50). Pirmiau ištrinkite vieną.',
  subuser_disabled: 'Šis papildomas naudotojas išjungtas. Paprašykite paslaugos savininko jį įjungti.',
  subuser_not_allowed: 'Papildomas naudotojas gali dirbti tik su savo paslaugos atsarginėmis kopijomis.',
  subuser_session_required: 'Norėdami tęsti, prisijunkite kaip papildomas naudotojas.',
  subuser_session_not_found: 'Ši sesija jau baigta.',
  two_factor_required: 'Reikalingas dviejų veiksnių autentifikavimas',
  invalid_verification_code: 'Neteisingas patvirtinimo kodas',
  two_factor_not_started:
    'Pirmiau pradėkite dviejų veiksnių sąranką: ji sukuria paslaptį, iš kurios gaunamas kodas.',
  two_factor_already_enabled:
    'Dviejų veiksnių autentifikavimas jau įjungtas. Norėdami nustatyti iš naujo, pirmiau jį išjunkite.',
  two_factor_not_enabled:
    'Dviejų veiksnių autentifikavimas išjungtas, todėl atsarginių kodų atnaujinti nėra ko.',
  linux_user_not_allowed:
    'Tai skirta darbo vietos savininkui. Darbo vietos naudotojai jungiasi Linux naudotojų portale.',
  linux_user_token_required:
    'Norėdami tęsti, prisijunkite prie Linux naudotojų portalo savo darbo vietos naudotojo vardu.',
  linux_user_inactive: 'Šis naudotojas išjungtas. Paprašykite darbo vietos savininko jį įjungti.',
  linux_user_no_vpn:
    'Šis naudotojas neturi VPN prieigos. Paprašykite darbo vietos savininko sukurti to paties vardo VPN naudotoją.',
  samba_public_ip_not_in_plan:
    'Šio plano adresas bendras (NAT): jo bendrinami aplankai pasiekiami tik per VPN. Kad aplanką teiktumėte viešuoju adresu, pasirinkite planą su skirtuoju IP.',
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
  workspace_name_characters: 'Naudokite tik raides, skaičius, brūkšnelius ir pabraukimus',
  workspace_name_lowercase: 'Naudokite mažąsias raides: pavadinimas tampa Unix ir Samba vardu',
  workspace_name_start: 'Turi prasidėti raide',
  workspace_name_reserved: 'Šis pavadinimas rezervuotas sistemai. Pasirinkite kitą',
  workspace_user_unknown: 'Paslaugoje nėra naudotojo tokiu vardu',
  workspace_group_unknown: 'Paslaugoje nėra grupės tokiu pavadinimu',
  workspace_group_name_taken: 'Kita paslaugos grupė jau turi tokį pavadinimą',
  listed_twice: 'Šis pavadinimas nurodytas daugiau nei kartą',
  share_path_invalid:
    'Nurodykite aplanką paslaugos viduje: raidžių, skaičių, brūkšnelių ir pabraukimų pavadinimus, atskirtus /',
  share_path_reserved: 'Šis aplankas skirtas sistemai (home, backups, system). Pasirinkite kitą',
  share_permissions_need_read:
    'Rašymo, vykdymo ir administravimo teisėms reikia ir skaitymo teisės. Be jokių teisių naudotojas į bendrinamą aplanką neįleidžiamas, net per grupę',
  samba_workgroup_invalid: 'Naudokite nuo 1 iki 15 raidžių, skaičių, brūkšnelių ir pabraukimų',
  samba_server_string_invalid: "Naudokite tik raides, skaičius, tarpus ir . , _ ( ) ' -",
  vpn_traffic_limit_negative: 'Srauto limitas negali būti neigiamas (0 reiškia neribotą)',
  nfs_path_invalid:
    'Naudokite aplankų pavadinimus iš raidžių, skaičių, brūkšnelių ir pabraukimų, atskirtus /',
  nfs_path_outside: 'Aplankas turi būti paslaugos saugykloje: „..“ ir „.“ neleidžiami',
  nfs_path_exported: 'Šis aplankas jau eksportuojamas. Verčiau pakeiskite jo eksportą',
  nfs_client_invalid: 'Naudokite IP adresą (192.168.1.10), tinklą (192.168.1.0/24) arba kompiuterio vardą',
  nfs_client_host_bits: 'Naudokite pirmąjį tinklo adresą, pavyzdžiui, 192.168.1.0/24',
  nfs_owner_inactive: 'Šis naudotojas išjungtas. Pasirinkite aktyvų naudotoją arba jokio',
  ftp_port_out_of_range: 'Nurodykite prievadą nuo 1024 iki 65535',
  ftp_limit_not_positive: 'Turi būti ne mažiau kaip 1',
  ftp_passive_range_reversed: 'Paskutinis pasyvusis prievadas negali būti mažesnis už pirmąjį',
  ftp_passive_range_too_small:
    'Pasyviųjų prievadų intervale reikia dviejų prievadų kiekvienam klientui: praplėskite intervalą arba leiskite mažiau klientų',
  ftp_per_user_above_max_clients: 'Negali būti daugiau nei iš viso leidžiamų klientų',
  ftp_anonymous_off: 'Anoniminis FTP niekada nesiūlomas',
  ldap_date_invalid: 'Įveskite datą formatu MMMM-MM-DD',
  ldap_date_past: 'Ši diena jau praėjo. Pasirinkite šiandieną arba vėlesnę dieną',
  ldap_user_unknown: 'Paslaugoje nėra naudotojo „{{name}}“',
  ldap_alias_invalid:
    'Naudokite nuo 1 iki 63 mažųjų raidžių, skaitmenų ir brūkšnelių; brūkšnelis negali būti pirmas ar paskutinis',
  ldap_alias_is_service_id: 'Tai jau yra paties katalogo bazinis pavadinimas. Pasirinkite kitą sinonimą',
  snapshot_path_invalid:
    'Nurodykite kelią nuo atsarginės kopijos šaknies, pavyzdžiui, /shares/projects/report.txt',
  time_zone_invalid: 'Pasirinkite laiko juostą iš sąrašo',
  backup_paths_required: 'Pasirinkite bent vieną aplanką kopijuoti',
  backup_path_unknown: 'Paslaugoje nebėra „{{name}}“',
  backup_keep_full_min: 'Laikykite bent vieną pilną kopiją',
  restore_root: 'Pasirinkite failą ar aplanką atsarginėje kopijoje, o ne visą kopiją',
  storage_path_invalid: 'Pasirinkite saugyklos failą ar aplanką',
  storage_path_reserved: 'Šis aplankas priklauso saugyklos mazgui, juo dalytis negalima',
  share_target_unknown: 'Paslaugoje to nebėra. Pasirinkite iš naujo',
  share_ip_rule_invalid:
    'Įveskite IP adresą ar tinklą, pavyzdžiui, 203.0.113.7, 192.168.1.0/24 ar 2001:db8::/32',
  share_ip_rule_host_bits: 'Naudokite pirmąjį tinklo adresą, pavyzdžiui, 192.168.1.0/24',
  share_ip_rules_too_many: 'Daugiausia 100 adresų ar tinklų',
  share_download_limit_invalid: 'Leiskite bent vieną atsisiuntimą arba palikite tuščią – be ribos',
  two_factor_code_format: 'Įveskite 6 skaitmenų kodą iš programėlės arba atsarginį kodą',
  unsupported_grant_type: 'Palaikomas tik slaptažodžio suteikimo būdas (grant_type=password)',
  linux_user_workspace_invalid: 'Įveskite savo darbo vietos paslaugos ID, kurį davė savininkas',
  webhook_url_not_public: 'Įveskite viešojo interneto adresą (ne privatų ar vietinį)',
};

export const errorMessages: Record<Language, Catalogue> = { en, lt };

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_STATUS, code);
}

export function isMessageCode(code: string): code is ErrorCode | FieldErrorCode {
  return Object.hasOwn(en, code);
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
