import { z } from "~/modules/validation/z";
import { twoFactorMessages } from "~/content/two-factor";
import { accountFieldMessages, INVALID_EMAIL } from "~/content/validation";
import { emailField } from "../newsletter/schema";

import { PASSWORD_MAX_BYTES, PASSWORD_MIN } from "./constants";

export { PASSWORD_MAX_BYTES, PASSWORD_MIN };

export const passwordField = z
  .string({ error: accountFieldMessages.passwordTooShort })
  .min(PASSWORD_MIN, accountFieldMessages.passwordTooShort)
  .refine((value) => new TextEncoder().encode(value).byteLength <= PASSWORD_MAX_BYTES, accountFieldMessages.passwordTooLong);

const nameField = z
  .string({ error: accountFieldMessages.nameRequired })
  .trim()
  .min(1, accountFieldMessages.nameRequired)
  .max(200, accountFieldMessages.nameTooLong);

const optionalCompany = z
  .string()
  .trim()
  .max(200, accountFieldMessages.companyTooLong)
  .optional()
  .transform((v) => (v ? v : undefined));

/** Investor registration. isAdmin, status, id and passwordHash are never taken from the request. */
export const RegisterInput = z.object({
  email: emailField,
  password: passwordField,
  name: nameField,
  company: optionalCompany,
});
export type RegisterInput = z.infer<typeof RegisterInput>;


/** The password on the confirmation page (the one chosen when registering; checked, never echoed). */
export const ConfirmRegistrationInput = z.object({
  password: z
    .string({ error: accountFieldMessages.passwordRequired })
    .min(1, accountFieldMessages.passwordRequired)
    .max(1024, accountFieldMessages.passwordInputTooLong),
});
export type ConfirmRegistrationInput = z.infer<typeof ConfirmRegistrationInput>;

/** 'Send the link again' (from the sign-in page): the address only. */
export const ResendConfirmationInput = z.object({ email: emailField });
export type ResendConfirmationInput = z.infer<typeof ResendConfirmationInput>;

/** Sign-in (investor and admin). */
export const LoginInput = z.object({
  email: z.string({ error: INVALID_EMAIL }).trim().toLowerCase().max(254, INVALID_EMAIL).pipe(z.email({ error: INVALID_EMAIL })),
  password: z
    .string({ error: accountFieldMessages.passwordRequired })
    .min(1, accountFieldMessages.passwordRequired)
    .max(1024, accountFieldMessages.passwordInputTooLong),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const USER_STATUSES = ["pending", "approved", "rejected"] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** PATCH /api/auth/users/{id}/status */
export const StatusInput = z.object({
  status: z.enum(["approved", "rejected"], { error: accountFieldMessages.statusInvalid }),
});
export type StatusInput = z.infer<typeof StatusInput>;

export const ForgotPasswordInput = z.object({ email: emailField });
export type ForgotPasswordInput = z.infer<typeof ForgotPasswordInput>;

export const ResetPasswordInput = z.object({
  token: z.string({ error: accountFieldMessages.resetLinkInvalid }).min(10).max(200),
  password: passwordField,
});
export type ResetPasswordInput = z.infer<typeof ResetPasswordInput>;

/** Change password on the account page: the current one (checked, never echoed) and a new one. */
export const ChangePasswordInput = z.object({
  currentPassword: z.string({ error: accountFieldMessages.passwordRequired }).min(1, accountFieldMessages.passwordRequired).max(1024),
  password: passwordField,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

/** A TOTP secret as an authenticator app takes it: base32, at least 80 bits (16 characters); spaces and case are ignored. */
const totpSecretField = z
  .string()
  .transform((value) => value.replace(/\s+/g, "").toUpperCase().replace(/=+$/, ""))
  .pipe(z.string().regex(/^[A-Z2-7]{16,128}$/, twoFactorMessages.totpSecretInvalid));

/** `npm run admin:create` arguments (the password and the TOTP secret come from a prompt, standard input, the environment or a file). */
export const AdminCreateInput = z.object({
  email: emailField,
  name: nameField,
  password: passwordField,
  /** Pre-enrols two-factor with this secret (provisioning and tests). */
  totpSecret: totpSecretField.optional(),
});
export type AdminCreateInput = z.infer<typeof AdminCreateInput>;

/** `npm run admin:create -- --promote`: the name is optional (given, it replaces the registered one). */
export const AdminPromoteInput = AdminCreateInput.extend({ name: nameField.optional() });
export type AdminPromoteInput = z.infer<typeof AdminPromoteInput>;
