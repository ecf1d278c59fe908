import { z } from "~/modules/validation/z";

import { INVALID_EMAIL } from "~/content/validation";

/** An e-mail address, trimmed and lower-cased so duplicates are caught. */
export const emailField = z
  .string({ error: INVALID_EMAIL })
  .trim()
  .toLowerCase()
  .max(254, INVALID_EMAIL)
  .pipe(z.email({ error: INVALID_EMAIL }));

export const NewsletterInput = z.object({ email: emailField });
export type NewsletterInput = z.infer<typeof NewsletterInput>;

/** A confirmation token as the server makes it: 32 random bytes, base64url. */
export const ConfirmToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
