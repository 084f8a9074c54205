/**
 * Payments waiting for the fan's authentication (3-D Secure) expire after a while (api/payments/service.ts,
 * expirePendingPayments): this finds the ones past their time without reading every payment.
 */
export const sql = `
CREATE INDEX payments_pending_idx ON payments (updated_at) WHERE status = 'requires_action';
`;
