import { eq } from "drizzle-orm";
import { paymentInstructionsCopy, paymentInstructionsMails, paymentInstructionsMessages as m } from "~/content/fund-operations";
import { getDb, type Db } from "~/modules/db/connection.server";
import { z } from "~/modules/validation/z";
import { funds } from "../../../db/schema";
import { audit } from "../audit/audit.server";
import type { LpUser } from "../auth/session.server";
import { now } from "../config/clock.server";
import { getEnv } from "../config/env.server";
import { adminDateTime } from "../dates/format";
import { AppError, type FieldErrors } from "../http/app-error";
import { adminRecipients } from "../lp-users/lp-users.server";
import { kickMailer, queueMails } from "../mail/mail.server";
import { CODE_MAX } from "../two-factor/constants";
import { verifySecondFactor } from "../two-factor/two-factor.server";
import type { Fund } from "./funds.server";
import { PAYMENT_FIELD_MAX, PAYMENT_FIELDS, type PaymentField } from "./payment-instructions";

/**
 * A fund's payment instructions (issue 24 §6; DESIGN.md §10 "Wire safety"):
 * the bank account investors pay its capital calls into, shown on each call
 * notice in the portal and never in an e-mail.
 *
 * Stored as JSON in `funds.payment_instructions` (the column migration 0017
 * made for them; no migration needed): the fields below, checked here, and
 * when and by whom they were last changed.
 *
 * A change needs a fresh two-factor code typed in the same form: a TOTP code
 * of a later step than the last one the account used (at sign-in too), rate
 * limited (verifySecondFactor, recovery codes not accepted). Every change is
 * an audit event, with the names of the fields that changed and their old
 * and new values, the account number masked to its last 4 characters (the
 * activity page and its CSV export never show a whole one), and a mail to
 * every admin saying which fund, who and when, without the details.
 */

export { PAYMENT_FIELDS, type PaymentField };

/** No control characters (a line break, a NUL, a bidi override) in any field. */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** A one-line text: surrounding spaces dropped, inner runs of spaces made one. */
function line(max: number, message: string, optional = false) {
  return z
    .string({ error: message })
    .refine((value) => !CONTROL.test(value), { message: m.oneLine, abort: true })
    .transform((value) => value.replace(/\s+/g, " ").trim())
    .refine((value) => (optional || value.length > 0) && value.length <= max, { message });
}

/** ISO 13616: the check digits make the whole, as a number with A=10 … Z=35, 1 modulo 97. */
export function isValidIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const value = char >= "A" ? char.charCodeAt(0) - 55 : Number(char);
    rest = (rest * (value >= 10 ? 100 : 10) + value) % 97;
  }
  return rest === 1;
}

/** An ABA routing number: 9 digits whose weighted sum (3, 7, 1, …) is a multiple of 10. */
export function isValidRouting(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  return (3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!)) % 10 === 0;
}

/** Looks like an IBAN (a country code and check digits first): checked as one. */
const IBAN_LIKE = /^[A-Z]{2}\d{2}/;

export const paymentInstructionsSchema = z.object({
  beneficiary: line(PAYMENT_FIELD_MAX.beneficiary, m.beneficiary),
  bankName: line(PAYMENT_FIELD_MAX.bankName, m.bankName),
  bankAddress: line(PAYMENT_FIELD_MAX.bankAddress, m.bankAddress, true).transform((value) => value || null),
  account: z
    .string({ error: m.account })
    .transform((value) => value.replace(/[\s]+/g, "").toUpperCase())
    .refine((value) => /^[A-Z0-9-]{4,34}$/.test(value), { message: m.account, abort: true })
    .refine((value) => !IBAN_LIKE.test(value) || isValidIban(value), { message: m.iban }),
  swift: z
    .string({ error: m.swift })
    .transform((value) => value.replace(/\s+/g, "").toUpperCase())
    .refine((value) => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/.test(value), { message: m.swift }),
  routing: z
    .string({ error: m.routing })
    .transform((value) => value.replace(/[\s-]+/g, ""))
    .refine((value) => value === "" || /^\d{9}$/.test(value), { message: m.routing, abort: true })
    .refine((value) => value === "" || isValidRouting(value), { message: m.routingChecksum })
    .transform((value) => value || null),
  reference: line(PAYMENT_FIELD_MAX.reference, m.reference),
});
export type PaymentInstructions = z.output<typeof paymentInstructionsSchema>;

/** What the column holds: the instructions and their last change. */
const storedSchema = z.object({
  beneficiary: z.string(),
  bankName: z.string(),
  bankAddress: z.string().nullable(),
  account: z.string(),
  swift: z.string(),
  routing: z.string().nullable(),
  reference: z.string(),
  changedAt: z.string(),
  changedBy: z.object({ id: z.string(), email: z.string(), name: z.string() }),
});
export type StoredPaymentInstructions = z.output<typeof storedSchema>;

/** The column's JSON as instructions, or null (not set, or not of this shape: never shown half). */
export function readPaymentInstructions(column: string | null): StoredPaymentInstructions | null {
  if (!column) return null;
  try {
    const parsed = storedSchema.safeParse(JSON.parse(column));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** An IBAN or account number in groups of 4, as a bank prints it. */
export function groupAccount(account: string): string {
  return account.replace(/(.{4})(?=.)/g, "$1 ");
}

/** The instructions as labelled lines, in the order a transfer form asks for them (for the pages). */
export function paymentInstructionLines(instructions: PaymentInstructions): { key: PaymentField; label: string; value: string; mono?: boolean }[] {
  const labels = paymentInstructionsCopy.fields;
  const lines: { key: PaymentField; label: string; value: string | null; mono?: boolean }[] = [
    { key: "beneficiary", label: labels.beneficiary, value: instructions.beneficiary },
    { key: "bankName", label: labels.bankName, value: instructions.bankName },
    { key: "bankAddress", label: labels.bankAddress, value: instructions.bankAddress },
    { key: "account", label: labels.account, value: groupAccount(instructions.account), mono: true },
    { key: "swift", label: labels.swift, value: instructions.swift, mono: true },
    { key: "routing", label: labels.routing, value: instructions.routing, mono: true },
    { key: "reference", label: labels.reference, value: instructions.reference },
  ];
  return lines.filter((l): l is (typeof lines)[number] & { value: string } => l.value !== null);
}

/** The last 4 characters of an account number, for the audit trail. */
const masked = (account: string | null | undefined) => (account ? `…${account.slice(-4)}` : null);

type Admin = Pick<LpUser, "id" | "email" | "name" | "isAdmin">;

/**
 * Set or change `fund`'s payment instructions. `input` is the form's fields
 * and `code` (a fresh TOTP code of the admin's). Refusals, each with its
 * field's message: a field that is not valid (400, checked before the code,
 * so a typing error does not spend one), a missing, wrong or already used
 * code (400 / 401 on `code`), too many codes (429). Nothing changed (the same
 * details): `changed` is empty, and nothing is written or mailed.
 */
export async function setPaymentInstructions(admin: Admin, fund: Fund, input: Record<string, unknown>, clientAddress: string, db: Db = getDb()): Promise<{ changed: PaymentField[] }> {
  const fields: FieldErrors = {};
  const details = paymentInstructionsSchema.safeParse(input);
  if (!details.success) for (const issue of details.error.issues) (fields[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
  const code = typeof input.code === "string" ? input.code.trim() : "";
  if (!code || code.length > CODE_MAX) fields.code = [m.code];
  if (!details.success || fields.code) throw new AppError("bad_request", Object.values(fields)[0]?.[0] ?? m.code, { fields });

  await verifySecondFactor(admin, code, clientAddress, { recovery: false }, db);

  const next = details.data;
  const before = readPaymentInstructions(db.select({ value: funds.paymentInstructions }).from(funds).where(eq(funds.id, fund.id)).get()?.value ?? null);
  const changed = PAYMENT_FIELDS.filter((key) => (before?.[key] ?? null) !== next[key]);
  if (changed.length === 0) return { changed };

  const at = now();
  const stored: StoredPaymentInstructions = { ...next, changedAt: at.toISOString(), changedBy: { id: admin.id, email: admin.email, name: admin.name } };
  const shown = (key: PaymentField, value: StoredPaymentInstructions | PaymentInstructions | null) => (key === "account" ? masked(value?.account) : (value?.[key] ?? null));
  db.transaction((tx) => {
    tx.update(funds).set({ paymentInstructions: JSON.stringify(stored) }).where(eq(funds.id, fund.id)).run();
    audit(tx, "fund.payment_instructions_changed", {
      actor: { id: admin.id, email: admin.email },
      target: { type: "fund", id: fund.id, label: fund.name },
      details: {
        fund: fund.slug,
        changed,
        from: Object.fromEntries(changed.map((key) => [key, shown(key, before)])),
        to: Object.fromEntries(changed.map((key) => [key, shown(key, next)])),
      },
    });
    const mail = paymentInstructionsMails.changed({
      fund: fund.name,
      actor: admin,
      when: adminDateTime(at),
      changed: changed.map((key) => paymentInstructionsCopy.fields[key]),
      url: `${getEnv().APP_URL}/admin/funds/${fund.slug}/payment-instructions`,
    });
    queueMails(
      tx,
      adminRecipients(tx).map((to) => ({ to, ...mail })),
    );
  });
  kickMailer();
  return { changed };
}
