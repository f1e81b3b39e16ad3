// The plan-change and account-credit calls (packages/contract/src/plan-changes.ts) as the plans
// pages and the plan-change payment page use them.
import {
  accountCreditSchema,
  planChangeQuoteSchema,
  planChangeSchema,
  type AccountCredit,
  type PlanChange,
  type PlanChangeQuote,
  type PlanChangeQuoteRequest,
  type PlanChangeRequest,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';

export const PLAN_CHANGE_QUOTE_PATH = '/api/v1/plan-changes/quote';
export const PLAN_CHANGES_PATH = '/api/v1/plan-changes/';
export const ACCOUNT_CREDIT_PATH = '/api/v1/account/credit';
export const ACCOUNT_CREDIT_QUERY_KEY = ['account', 'credit'] as const;

export const quotePlanChange = (body: PlanChangeQuoteRequest): Promise<PlanChangeQuote> =>
  api.post(PLAN_CHANGE_QUOTE_PATH, body, planChangeQuoteSchema);

export const createPlanChange = (body: PlanChangeRequest): Promise<PlanChange> =>
  api.post(PLAN_CHANGES_PATH, body, planChangeSchema);

export const getPlanChange = (id: string): Promise<PlanChange> =>
  api.get(`${PLAN_CHANGES_PATH}${encodeURIComponent(id)}`, planChangeSchema);

export function useAccountCredit() {
  return useQuery({
    queryKey: ACCOUNT_CREDIT_QUERY_KEY,
    queryFn: () => api.get(ACCOUNT_CREDIT_PATH, accountCreditSchema),
  });
}

/** Credit the next order can use: the balance less what orders awaiting payment set aside. */
export function freeCredit(credit: AccountCredit | undefined): number {
  return credit ? Math.max(0, credit.balance - credit.reserved) : 0;
}
