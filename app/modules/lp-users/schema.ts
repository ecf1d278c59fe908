import { z } from "zod";
import { emailField } from "../newsletter/schema";

export const PASSWORD_MIN = 8;
/** bcrypt reads at most 72 bytes; longer passwords are refused, never silently truncated. */
export const PASSWORD_MAX_BYTES = 72;

export const passwordField = z
  .string({ error: "Password must be at least 8 characters" })
  .min(PASSWORD_MIN, "Password must be at least 8 characters")
  .refine(
    (value) => new TextEncoder().encode(value).byteLength <= PASSWORD_MAX_BYTES,
    "Password must be at most 72 bytes (about 72 letters, fewer with accents or emoji)",
  );

/** `npm run admin:create` arguments. */
export const AdminCreateInput = z.object({
  email: emailField,
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(200),
  password: passwordField,
});
export type AdminCreateInput = z.infer<typeof AdminCreateInput>;
