/** The code step of a two-factor sign-in (routes/auth/two-factor.tsx). */
export const TWO_FACTOR_PATH = "/login/two-factor";
