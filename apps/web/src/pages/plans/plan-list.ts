// The plan cards' data for /pricing and /auth/plans, read with the browser's fetch and checked by
// hand: the cards are the page's first paint, and the API client (axios) and the contract's zod
// schemas (~50 KB gzipped together) would hold it back. The configurator, loaded when a plan is
// chosen, checks the chosen plan against the contract's full schema before pricing it.
import { CLIENT_TIMING, LANGUAGE_HEADER } from '@debesis/contract';
import { currentLanguage } from '../../i18n/language.ts';

export const PLAN_LIST_PATH = '/api/v1/products/';

/** What a plan card shows; `product` is the plan as the API sent it, for the configurator. */
export interface PlanCardFacts {
  id: string;
  name: string;
  /** Base monthly price, minor units. */
  price: number;
  is_active: boolean;
  /** Included disk, GB. */
  disk_space: number;
  allowed_users: number;
  address: 'nat' | 'dedicated';
  support: 'email' | 'priority' | '24/7';
  product: unknown;
}

const ADDRESSES = ['nat', 'dedicated'] as const;
const SUPPORT = ['email', 'priority', '24/7'] as const;

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}

const count = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** The card facts of each plan in a GET /products/ answer; throws on any other shape. */
export function parsePlanList(body: unknown): PlanCardFacts[] {
  if (!Array.isArray(body)) throw new TypeError('the plan list is not a list');
  return body.map((item: unknown) => {
    const plan = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    const { id, name, price, is_active, disk_space, allowed_users, address, support } = plan;
    if (
      typeof id !== 'string' ||
      typeof name !== 'string' ||
      !count(price) ||
      typeof is_active !== 'boolean' ||
      !count(disk_space) ||
      !count(allowed_users) ||
      !oneOf(address, ADDRESSES) ||
      !oneOf(support, SUPPORT)
    ) {
      throw new TypeError('a plan in the list is not a plan');
    }
    return { id, name, price, is_active, disk_space, allowed_users, address, support, product: item };
  });
}

/** GET /products/ (public: no session, no CSRF), in the interface language, within the client's time-out. */
export async function fetchPlanList(signal?: AbortSignal): Promise<PlanCardFacts[]> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  const timer = setTimeout(abort, CLIENT_TIMING.requestTimeoutMs);
  signal?.addEventListener('abort', abort);
  try {
    const response = await fetch(PLAN_LIST_PATH, {
      headers: { accept: 'application/json', [LANGUAGE_HEADER]: currentLanguage() },
      credentials: 'same-origin',
      signal: controller.signal,
    });
    if (!response.ok) throw new Error(`GET ${PLAN_LIST_PATH} answered ${response.status}`);
    return parsePlanList(await response.json());
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}
