/** Account rules and messages shared by the server schemas and the forms (kept free of zod, so pages stay light). */
export const PASSWORD_MIN = 8;
/** bcrypt reads at most 72 bytes; longer passwords are refused, never silently truncated. */
export const PASSWORD_MAX_BYTES = 72;

export const accountFieldMessages = {
  passwordRequired: "Password is required",
  passwordTooShort: "Password must be at least 8 characters",
  passwordTooLong: "Password must be at most 72 bytes (about 72 letters, fewer with accents or emoji)",
  nameRequired: "Name is required",
} as const;
