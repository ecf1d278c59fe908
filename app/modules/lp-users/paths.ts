/**
 * Paths of the account pages that client code links or posts to (zod-free: a route
 * module imports these in the browser, which must not load the validation library
 * for a path; decision 032).
 */

/** The registration confirmation link's page (decision 028). The token goes in `?token=`, which request logs mask. */
export const REGISTER_CONFIRM_PATH = "/lp/register/confirm";
