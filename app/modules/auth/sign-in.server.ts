import { Authenticator } from "remix-auth";
import { requestMessages } from "~/content/validation";
import { FormStrategy } from "remix-auth-form";
import { AppError, isAppError } from "../http/app-error";
import { enforceRateLimit } from "../http/rate-limit.server";
import { assertMaySignIn, isConfirmationRequired, verifyCredentials, type LpUser } from "../lp-users/lp-users.server";
import { LoginInput } from "../lp-users/schema";
import { accountMessages } from "~/content/accounts";
import { createTwoFactorChallenge, createUserSession, getTwoFactorChallenge } from "./session.server";
import { twoFactorCopy, twoFactorMessages } from "~/content/two-factor";
import { hasTwoFactor, verifySecondFactor } from "../two-factor/two-factor.server";
import { getDb } from "~/modules/db/connection.server";
import { audit } from "../audit/audit.server";

/**
 * Sign-in through remix-auth's FormStrategy: the form's e-mail and password
 * are checked by verifyCredentials, with a limit per client address and one
 * per account. Each attempt reserves its place in both before bcrypt runs
 * (decision 030), so parallel guesses cannot pass together; a right password
 * gives back the account's place only (the address counts every attempt).
 */
const authenticator = new Authenticator<LpUser>();
authenticator.use(
  new FormStrategy<LpUser>(async ({ form }) => {
    const parsed = LoginInput.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!parsed.success) {
      const fields: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) (fields[String(issue.path[0] ?? "form")] ??= []).push(issue.message);
      throw new AppError("bad_request", parsed.error.issues[0]?.message ?? requestMessages.invalidRequest, { fields });
    }
    const account = parsed.data.email;
    const place = await enforceRateLimit("loginAccount", account);
    try {
      const user = await verifyCredentials(parsed.data);
      await place.giveBack();
      return user;
    } catch (error) {
      if (isAppError(error) && error.code === "unauthorized") {
        audit(getDb(), "auth.sign_in_failed", {
          target: { type: "user", label: account },
          details: { email: account, reason: "wrong e-mail or password" },
        });
      } else if (isConfirmationRequired(error)) {
        // The right password of a registration whose address is not confirmed yet (decision 028).
        await place.giveBack();
        audit(getDb(), "auth.sign_in_failed", {
          target: { type: "user", label: account },
          details: { email: account, reason: "address not confirmed" },
        });
      }
      throw error;
    }
  }),
  "form",
);

/**
 * `signed_in`: a full session. `two_factor`: the password was right and the
 * account has two-factor; the cookie holds a 5-minute challenge that only the
 * code step (completeTwoFactorSignIn) accepts.
 */
export type SignInResult = { user: LpUser; setCookie: string; next: "signed_in" | "two_factor" };

type SignInOptions = {
  adminOnly?: boolean;
  /** A TOTP or recovery code sent with the password (the JSON sign-in). */
  code?: string | undefined;
  /** With two-factor and no code: a challenge session (pages) or a 401 'Two-factor code required' (JSON). */
  withoutCode?: "challenge" | "refuse";
};

/**
 * Authenticate a form-encoded request (email, password) and start a rotated
 * session. `adminOnly` refuses non-admins without signing them in. Every way
 * into a session passes here or through completeTwoFactorSignIn, so the
 * two-factor check is made once, in `afterPassword`.
 */
export async function signIn(request: Request, clientAddress: string, options: SignInOptions = {}): Promise<SignInResult> {
  await enforceRateLimit("login", clientAddress);
  const adminOnly = options.adminOnly ?? false;
  let user: LpUser;
  try {
    user = await authenticator.authenticate("form", request);
  } catch (error) {
    // As for a pending account, the admin sign-in says only that it is for admins (decision 010).
    if (adminOnly && isConfirmationRequired(error)) throw new AppError("forbidden", accountMessages.adminOnly);
    throw error;
  }
  // Only after the password matched: who may start a session here.
  try {
    assertMaySignIn(user, { adminOnly });
  } catch (error) {
    audit(getDb(), "auth.sign_in_failed", {
      target: { type: "user", id: user.id, label: user.email },
      details: { userId: user.id, email: user.email, reason: isAppError(error) ? error.code : "refused" },
    });
    throw error;
  }
  return afterPassword(request, user, clientAddress, { ...options, adminOnly });
}

async function afterPassword(request: Request, user: LpUser, clientAddress: string, options: SignInOptions): Promise<SignInResult> {
  const details = { isAdmin: user.isAdmin, portal: options.adminOnly ? "admin" : "any" };
  if (!hasTwoFactor(user.id)) {
    return { user, setCookie: await createUserSession(request, user, details), next: "signed_in" };
  }
  if (options.code === undefined || options.code === "") {
    if (options.withoutCode === "refuse") {
      throw new AppError("unauthorized", twoFactorMessages.codeRequired, { json: { twoFactorRequired: true } });
    }
    return { user, setCookie: await createTwoFactorChallenge(request, user), next: "two_factor" };
  }
  const factor = await verifySecondFactor(user, options.code, clientAddress);
  return { user, setCookie: await createUserSession(request, user, { ...details, secondFactor: factor }), next: "signed_in" };
}

/**
 * The code step of a two-factor sign-in: the request's challenge session and
 * a TOTP or recovery code give a full session under a new id. Without a live
 * challenge (none, expired, or ended) it is a 401.
 */
export async function completeTwoFactorSignIn(request: Request, code: string, clientAddress: string): Promise<SignInResult> {
  const user = await getTwoFactorChallenge(request);
  if (!user) throw new AppError("unauthorized", twoFactorCopy.code.expired);
  // The account may have been refused in the minutes since the password step.
  assertMaySignIn(user);
  return afterPassword(request, user, clientAddress, { adminOnly: user.isAdmin, code, withoutCode: "refuse" });
}

/** The same sign-in for a JSON body `{ email, password, code? }` (POST /api/auth/login). */
export async function signInWithJson(
  request: Request,
  body: { email?: unknown; password?: unknown; code?: unknown },
  clientAddress: string,
): Promise<SignInResult> {
  const form = new URLSearchParams();
  if (typeof body.email === "string") form.set("email", body.email);
  if (typeof body.password === "string") form.set("password", body.password);
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  const cookie = request.headers.get("Cookie");
  if (cookie) headers.set("Cookie", cookie);
  // A code sent as a number would have lost its leading zeros: only text is a code.
  if (body.code !== undefined && body.code !== null && typeof body.code !== "string") {
    throw new AppError("bad_request", twoFactorMessages.enterCode, { fields: { code: [twoFactorMessages.enterCode] } });
  }
  const code = typeof body.code === "string" ? body.code : undefined;
  return signIn(new Request(request.url, { method: "POST", headers, body: form }), clientAddress, { code, withoutCode: "refuse" });
}
