import { z } from "zod";
import { twoFactorMessages } from "~/content/two-factor";

/** Longest code accepted at the edge: a recovery code with spaces around it is 11 characters. */
export const CODE_MAX = 32;

/** A submitted second factor: a 6-digit TOTP code or a recovery code (the domain tells them apart). */
export const CodeInput = z.object({
  code: z
    .string({ error: twoFactorMessages.enterCode })
    .trim()
    .min(1, twoFactorMessages.enterCode)
    .max(CODE_MAX, twoFactorMessages.enterCode),
});
export type CodeInput = z.infer<typeof CodeInput>;
