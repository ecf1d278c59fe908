import { data } from "react-router";
import { OneClickUnsubscribe } from "~/modules/document-mail/schema";
import { readFormData } from "~/modules/http/form-data.server";
import { tokenParam } from "~/modules/http/token-param";

/**
 * The loader and action of both unsubscribe links (/unsubscribe/documents,
 * /unsubscribe/newsletter), each with its list's token check and change.
 */

/** The page with one button; no sign-in. 400 for a token this server did not sign. */
export function oneClickPage(request: Request, isValid: (token: string | null) => boolean) {
  const token = tokenParam(request);
  return isValid(token) ? { token } : data({ token: null }, { status: 400 });
}

/**
 * The one-click unsubscribe (RFC 8058): a mail provider's POST of
 * `List-Unsubscribe=One-Click` to the link (no cookie, no Origin), or the
 * page's button, which posts the same body. A bad token or body: 400, nothing changes.
 *
 * Not through answerForm (issue 23 §2), for both unsubscribe routes: RFC 8058 has the
 * mail provider's POST answered 200 without a redirect, and the page's button posts the
 * very same body to the same address, so it gets the same answer; the token is in the
 * address (a redirect would repeat it), and there is no toast or typed value to carry.
 */
export async function oneClickUnsubscribe(request: Request, unsubscribe: (token: string | null) => boolean) {
  const body = OneClickUnsubscribe.safeParse(Object.fromEntries(await readFormData(request)));
  const done = body.success && unsubscribe(tokenParam(request));
  return done ? { done: true } : data({ done: false }, { status: 400 });
}
