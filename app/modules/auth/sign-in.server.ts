import { Authenticator } from "remix-auth";
import { requestMessages } from "~/content/validation";
import { FormStrategy } from "remix-auth-form";
import { AppError, isAppError } from "../http/app-error";
import { assertNotLimited, clearFailures, enforceRateLimit, recordFailure } from "../http/rate-limit.server";
import { assertMaySignIn, verifyCredentials, type LpUser } from "../lp-users/lp-users.server";
import { LoginInput } from "../lp-users/schema";
import { createUserSession } from "./session.server";
import { getDb } from "../../../db/client";
import { audit } from "../audit/audit.server";

/**
 * Sign-in through remix-auth's FormStrategy: the form's e-mail and password
 * are checked by verifyCredentials, with a limit per client address and a limit on
 * failures per account.
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
    await assertNotLimited("loginAccount", account);
    try {
      const user = await verifyCredentials(parsed.data);
      await clearFailures("loginAccount", account);
      return user;
    } catch (error) {
      if (isAppError(error) && error.code === "unauthorized") {
        audit(getDb(), "auth.sign_in_failed", {
          target: { type: "user", label: account },
          details: { email: account, reason: "wrong e-mail or password" },
        });
        await recordFailure("loginAccount", account);
      }
      throw error;
    }
  }),
  "form",
);

export type SignInResult = { user: LpUser; setCookie: string };

/**
 * Authenticate a form-encoded request (email, password) and start a rotated
 * session. `adminOnly` refuses non-admins without signing them in.
 */
export async function signIn(
  request: Request,
  clientAddress: string,
  { adminOnly = false }: { adminOnly?: boolean } = {},
): Promise<SignInResult> {
  await enforceRateLimit("login", clientAddress);
  const user = await authenticator.authenticate("form", request);
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
  const setCookie = await createUserSession(request, user, { isAdmin: user.isAdmin, portal: adminOnly ? "admin" : "any" });
  return { user, setCookie };
}

/** The same sign-in for a JSON body `{ email, password }` (POST /api/auth/login). */
export async function signInWithJson(
  request: Request,
  body: { email?: unknown; password?: unknown },
  clientAddress: string,
): Promise<SignInResult> {
  const form = new URLSearchParams();
  if (typeof body.email === "string") form.set("email", body.email);
  if (typeof body.password === "string") form.set("password", body.password);
  const headers = new Headers({ "Content-Type": "application/x-www-form-urlencoded" });
  const cookie = request.headers.get("Cookie");
  if (cookie) headers.set("Cookie", cookie);
  return signIn(new Request(request.url, { method: "POST", headers, body: form }), clientAddress);
}
