// The rules of the VPN user forms: the contract's (createVpnUserRequestSchema,
// updateVpnUserRequestSchema), so a form refuses what the server would, plus what only a form
// has: the password typed twice, and the monthly traffic limit typed for people, in MB or GB
// (binary units, as formatBytes shows them), sent in bytes. The limit's field carries the
// contract's name, traffic_limit_bytes, so the server's refusal of it lands on it.
import {
  createVpnUserRequestSchema,
  updateVpnUserRequestSchema,
  vpnTrafficLimitSchema,
  type CreateVpnUserRequest,
  type UpdateVpnUserRequest,
} from '@debesis/contract';
import { z } from 'zod';
import { checkConfirmation } from '../workspace-forms.ts';

export const TRAFFIC_UNITS = ['MB', 'GB'] as const;
export type TrafficUnit = (typeof TRAFFIC_UNITS)[number];
const UNIT_BYTES: Record<TrafficUnit, number> = { MB: 1024 ** 2, GB: 1024 ** 3 };

/**
 * The limit's own messages, keys of the tab's texts (vpnTab): the field shows them in the
 * reader's language (VpnUserDialog's limit field).
 */
export const LIMIT_MESSAGES = {
  notNumber: 'vpn.limitNotNumber',
  negative: 'vpn.limitNegative',
  tooLarge: 'vpn.limitTooLarge',
} as const;
export type LimitMessage = (typeof LIMIT_MESSAGES)[keyof typeof LIMIT_MESSAGES];

/** "1.5" or "1,5" (a Lithuanian decimal comma) of `unit` in bytes; empty is 0, no limit. */
export function limitBytes(amount: string, unit: TrafficUnit): number | LimitMessage {
  const typed = amount.trim().replace(',', '.');
  if (typed === '') return 0;
  if (/^-\s*\d/.test(typed)) return LIMIT_MESSAGES.negative;
  if (!/^\d+(\.\d+)?$/.test(typed)) return LIMIT_MESSAGES.notNumber;
  const bytes = Math.round(Number(typed) * UNIT_BYTES[unit]);
  return vpnTrafficLimitSchema.safeParse(bytes).success ? bytes : LIMIT_MESSAGES.tooLarge;
}

/**
 * A limit in bytes as the form shows it: whole GB in GB, anything else in MB. Exact both ways: the
 * units are powers of two, so bytes / 2^20 is a finite decimal that rounds back to the same bytes.
 */
export function limitFields(bytes: number): { traffic_limit_bytes: string; traffic_unit: TrafficUnit } {
  if (bytes === 0) return { traffic_limit_bytes: '0', traffic_unit: 'GB' };
  const unit: TrafficUnit = bytes % UNIT_BYTES.GB === 0 ? 'GB' : 'MB';
  return { traffic_limit_bytes: String(bytes / UNIT_BYTES[unit]), traffic_unit: unit };
}

const limitShape = {
  /** The amount as typed, in `traffic_unit`. */
  traffic_limit_bytes: z.string(),
  traffic_unit: z.enum(TRAFFIC_UNITS),
};

function checkLimit(
  value: { traffic_limit_bytes: string; traffic_unit: TrafficUnit },
  context: z.RefinementCtx,
): void {
  const bytes = limitBytes(value.traffic_limit_bytes, value.traffic_unit);
  if (typeof bytes === 'string') {
    context.addIssue({ code: 'custom', path: ['traffic_limit_bytes'], message: bytes });
  }
}

/** The limit in bytes, once checkLimit has let it through. */
function checkedBytes(value: { traffic_limit_bytes: string; traffic_unit: TrafficUnit }): number {
  const bytes = limitBytes(value.traffic_limit_bytes, value.traffic_unit);
  return typeof bytes === 'number' ? bytes : 0;
}

const create = createVpnUserRequestSchema.shape;
const update = updateVpnUserRequestSchema.shape;

export const vpnUserCreateFormSchema = z
  .object({
    username: create.username,
    password: create.password,
    confirm: z.string(),
    full_name: create.full_name,
    email: create.email,
    enabled: z.boolean(),
    ...limitShape,
  })
  .superRefine((value, context) => {
    checkConfirmation(value, context);
    checkLimit(value, context);
  });
export type VpnUserCreateFormValues = z.output<typeof vpnUserCreateFormSchema>;

/** A user being changed keeps its username (its certificate's name) and its password (reset apart). */
export const vpnUserEditFormSchema = z
  .object({
    full_name: update.full_name.unwrap(),
    email: update.email.unwrap(),
    enabled: z.boolean(),
    ...limitShape,
  })
  .superRefine(checkLimit);
export type VpnUserEditFormValues = z.output<typeof vpnUserEditFormSchema>;

export function createRequestOf(values: VpnUserCreateFormValues): CreateVpnUserRequest {
  return {
    username: values.username,
    password: values.password,
    full_name: values.full_name,
    email: values.email,
    enabled: values.enabled,
    traffic_limit_bytes: checkedBytes(values),
  };
}

export function updateRequestOf(values: VpnUserEditFormValues): UpdateVpnUserRequest {
  return {
    full_name: values.full_name,
    email: values.email,
    enabled: values.enabled,
    traffic_limit_bytes: checkedBytes(values),
  };
}
