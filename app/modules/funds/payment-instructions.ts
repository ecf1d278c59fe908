/**
 * The payment instructions' field names and their form's intent, for the
 * page and the server alike (no server code, no zod: decision 032).
 * payment-instructions.server.ts checks and stores them.
 */

/** The fields, in the order a transfer form asks for them. */
export const PAYMENT_FIELDS = ["beneficiary", "bankName", "bankAddress", "account", "swift", "routing", "reference"] as const;
export type PaymentField = (typeof PAYMENT_FIELDS)[number];

/** The payment instructions page's one form. */
export const PAYMENT_INSTRUCTIONS_INTENT = "payment-instructions";

/** The longest value of each field, for the form's maxLength (the server checks the same). */
export const PAYMENT_FIELD_MAX: Record<PaymentField, number> = {
  beneficiary: 140,
  bankName: 140,
  bankAddress: 200,
  account: 48,
  swift: 16,
  routing: 16,
  reference: 140,
};
