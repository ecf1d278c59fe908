/** Messages shared by the server schema and the form (kept free of zod, so forms stay light). */
export const INVALID_EMAIL = "Invalid email address";
export const ALREADY_SUBSCRIBED = "Email already subscribed";
