import { useEffect } from "react";
import { data, redirect } from "react-router";
import type { Route } from "./+types/fund-ii-documents";
import { FundDocumentsPage, type FundDocumentView } from "~/components/funds/fund-document";
import { forgetStoredToken, FundIIAccessGate, type FundIIDenial } from "~/components/funds/fund-ii-access-gate";
import { FundIIDocumentList } from "~/components/funds/fund-ii-document-list";
import { fundAccessCopy } from "~/content/fund-access";
import { getSessionUser } from "~/modules/auth/session.server";
import { fundDocuments } from "~/modules/documents/documents.server";
import { fundAccessMessages } from "~/content/validation";
import { clearFundCookie, readFundCookie, setFundCookie } from "~/modules/fund-access/cookie.server";
import { checkFundToken, findAccessByCookieValue } from "~/modules/fund-access/fund-access.server";
import { isAppError } from "~/modules/http/app-error";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { pageMeta } from "~/modules/seo/meta";
import { logError } from "~/modules/logging/log.server";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: fundAccessCopy.fundIIDocuments.metaTitle,
    description: fundAccessCopy.fundIIDocuments.description,
    path: "/fund-ii/documents",
    noindex: true,
  });

/** Keep Retry-After on a rate-limited answer. */
export const headers = keepRetryAfter;

const PATH = "/fund-ii/documents";

type Denied = { access: "denied"; denial: FundIIDenial };

async function denied(reason: FundIIDenial["reason"], message: string, init: { status: number; clearCookie?: boolean; retryAfter?: number }) {
  const headers = new Headers();
  if (init.clearCookie) headers.append("Set-Cookie", await clearFundCookie("fund-ii"));
  if (init.retryAfter !== undefined) headers.set("Retry-After", String(init.retryAfter));
  const body: Denied = { access: "denied", denial: { reason, message } };
  return data(body, { status: init.status, headers });
}

/**
 * The Fund II documents (SPEC.md §2, §4, §8; docs/decisions/012). A token in
 * the URL (the e-mailed link) is checked here: valid, it becomes the HttpOnly
 * access cookie and the page redirects to the clean URL; invalid, the page
 * says so and clears the cookie. Without a URL token the cookie (or an admin
 * session) decides. Refusals render the failure state, which sends the visitor
 * to /fund-ii/signup after 2 s.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  if (token) {
    try {
      await enforceRateLimit("tokenCheck", context.clientAddress);
    } catch (error) {
      if (!isAppError(error)) throw error;
      return denied("limited", error.message, { status: error.status, retryAfter: error.options.retryAfterSeconds });
    }
    let valid: boolean;
    try {
      valid = checkFundToken(token, "fund-ii", "link") !== null;
    } catch (error) {
      logError(error);
      return denied("failed", fundAccessMessages.validationFailed, { status: 500 });
    }
    if (!valid) return denied("invalid", fundAccessMessages.tokenInvalid, { status: 403, clearCookie: true });
    throw redirect(PATH, { headers: { "Set-Cookie": await setFundCookie("fund-ii", token) } });
  }

  let documents: FundDocumentView[];
  try {
    const user = await getSessionUser(request);
    if (!user?.isAdmin) {
      const cookieValue = await readFundCookie(request, "fund-ii");
      if (!cookieValue) return denied("required", fundAccessMessages.tokenRequired, { status: 401 });
      // A cookie whose request was revoked or replaced: say so and drop it.
      if (!findAccessByCookieValue(cookieValue, "fund-ii")) {
        return denied("invalid", fundAccessMessages.tokenInvalid, { status: 403, clearCookie: true });
      }
    }
    documents = fundDocuments.listForPage("fund-ii", "text");
  } catch (error) {
    logError(error);
    return denied("failed", fundAccessMessages.validationFailed, { status: 500 });
  }
  return data({ access: "granted" as const, documents });
}

export default function FundIIDocuments({ loaderData }: Route.ComponentProps) {
  const c = fundAccessCopy.fundIIDocuments;
  const granted = loaderData.access === "granted";
  return (
    <FundDocumentsPage
      back={{ to: "/fund-ii", label: c.back }}
      title={granted ? c.title : c.gateTitle}
      intro={granted ? c.intro : undefined}
    >
      {loaderData.access === "granted" ? (
        <Granted documents={loaderData.documents} />
      ) : (
        <FundIIAccessGate denial={loaderData.denial} />
      )}
    </FundDocumentsPage>
  );
}

function Granted({ documents }: { documents: FundDocumentView[] }) {
  const c = fundAccessCopy.fundIIDocuments;
  // The access lives in the HttpOnly cookie; a token an earlier version of the page stored is dropped.
  useEffect(() => forgetStoredToken(), []);
  return (
    <>
      <FundIIDocumentList documents={documents} />
      <p className="mt-6 text-xs text-slate-600 dark:text-slate-400">{c.note}</p>
    </>
  );
}
