import { createCookie, type Cookie } from "react-router";
import { getEnv } from "../config/env.server";
import type { FundId } from "./constants";
import { findAccessByCookieValue, type FundAccessRequest } from "./fund-access.server";

/**
 * A validated fund token lives in an HttpOnly cookie per fund (signed,
 * SameSite=Lax, `__Host-` over https). The server re-checks the token on every
 * request, so revoking the request ends the cookie's access at once. A Fund I
 * sign-up with the address of an existing request gets a pass for that request
 * instead of a token (fund-access.server.ts accessPass; decision 012), checked
 * the same way.
 */
const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

const cookies = new Map<FundId, Cookie>();

function fundCookie(fundId: FundId): Cookie {
  let cookie = cookies.get(fundId);
  if (!cookie) {
    const env = getEnv();
    // Named for the slug: lr_fund_i, lr_fund_ii (decision 012).
    const base = `lr_${fundId.replaceAll("-", "_")}`;
    cookie = createCookie(env.SECURE_COOKIES ? `__Host-${base}` : base, {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: env.SECURE_COOKIES,
      secrets: [env.SESSION_SECRET],
      maxAge: COOKIE_MAX_AGE_S,
    });
    cookies.set(fundId, cookie);
  }
  return cookie;
}

/** The token (or Fund I pass) in the fund's cookie, if any (not yet checked). */
export async function readFundCookie(request: Request, fundId: FundId): Promise<string | null> {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  const value: unknown = await fundCookie(fundId).parse(header);
  return typeof value === "string" && value.length > 0 ? value : null;
}

/** The live access request behind the fund's cookie, or null. */
export async function getFundAccess(request: Request, fundId: FundId): Promise<FundAccessRequest | null> {
  return findAccessByCookieValue(await readFundCookie(request, fundId), fundId);
}

/** The Set-Cookie line for a validated token, or a Fund I pass. */
export function setFundCookie(fundId: FundId, value: string): Promise<string> {
  return fundCookie(fundId).serialize(value);
}

export function clearFundCookie(fundId: FundId): Promise<string> {
  return fundCookie(fundId).serialize("", { maxAge: 0, expires: new Date(0) });
}
