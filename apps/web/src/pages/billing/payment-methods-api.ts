// The kept card's calls (GET/POST/DELETE /api/v1/billing/payment-methods) as Billing's "Payment
// method" panel uses them.
import { paymentMethodSetupResponseSchema, paymentMethodsResponseSchema } from '@debesis/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import { BILLING_QUERY_KEY } from './billing-api.ts';

export const PAYMENT_METHODS_PATH = '/api/v1/billing/payment-methods';
export const PAYMENT_METHOD_QUERY_KEY = [...BILLING_QUERY_KEY, 'payment-method'] as const;

/** The kept card; `pollMs` asks again that often (a card the provider is still confirming). */
export function usePaymentMethod(pollMs: number | false = false) {
  return useQuery({
    queryKey: PAYMENT_METHOD_QUERY_KEY,
    queryFn: () => api.get(PAYMENT_METHODS_PATH, paymentMethodsResponseSchema),
    refetchInterval: pollMs,
  });
}

/** Opens the provider's card form (a new card replaces the kept one): where it is. */
export const openCardForm = () => api.post(PAYMENT_METHODS_PATH, {}, paymentMethodSetupResponseSchema);

export function useRemovePaymentMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(PAYMENT_METHODS_PATH, paymentMethodsResponseSchema),
    onSuccess: (answer) => queryClient.setQueryData(PAYMENT_METHOD_QUERY_KEY, answer),
  });
}
