import { z } from "~/modules/validation/z";
import { emailField } from "../newsletter/schema";
import { fundAccessMessages } from "~/content/validation";
import { FUND_IDS } from "./constants";

const optionalText = (max: number, message: string) =>
  z
    .string()
    .trim()
    .max(max, message)
    .optional()
    .transform((v) => (v ? v : null));

/** A checkbox (form "on") or a JSON boolean. */
const checkbox = z.preprocess((v) => v === true || v === "true" || v === "on" || v === "1", z.boolean());

/**
 * POST /api/fund-access/register and both sign-up forms (SPEC.md §5). The
 * accredited/qualified confirmation is required for Fund II; the Fund I form
 * does not ask for it (docs/decisions/012-fund-access.md).
 */
export const FundAccessInput = z
  .object({
    name: z
      .string({ error: fundAccessMessages.nameRequired })
      .trim()
      .min(1, fundAccessMessages.nameRequired)
      .max(200, fundAccessMessages.nameTooLong),
    email: emailField,
    fundId: z.enum(FUND_IDS, { error: fundAccessMessages.fundInvalid }),
    company: optionalText(200, fundAccessMessages.companyTooLong),
    phone: optionalText(40, fundAccessMessages.phoneInvalid).refine(
      (v) => v === null || /^\+?[0-9 ()./-]{5,40}$/.test(v),
      fundAccessMessages.phoneInvalid,
    ),
    accreditedConfirmation: checkbox.optional().transform((v) => v ?? false),
  })
  .superRefine((input, ctx) => {
    if (input.fundId === "fund-ii" && !input.accreditedConfirmation) {
      ctx.addIssue({ code: "custom", path: ["accreditedConfirmation"], message: fundAccessMessages.accreditedRequired });
    }
  });
export type FundAccessInput = z.output<typeof FundAccessInput>;

/** POST /api/fund-access/validate-token. */
export const ValidateTokenInput = z.object({
  token: z.string({ error: fundAccessMessages.tokenRequired }).max(200, fundAccessMessages.tokenInvalid),
});
