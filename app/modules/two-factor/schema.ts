import { z } from "~/modules/validation/z";
import { twoFactorMessages } from "~/content/two-factor";
import { CODE_MAX } from "./constants";

/** A submitted second factor: a 6-digit TOTP code or a recovery code (the domain tells them apart). */
export const CodeInput = z.object({
  code: z
    .string({ error: twoFactorMessages.enterCode })
    .trim()
    .min(1, twoFactorMessages.enterCode)
    .max(CODE_MAX, twoFactorMessages.enterCode),
});
export type CodeInput = z.infer<typeof CodeInput>;
