import { ArrowLeft } from "lucide-react";
import { useEffect } from "react";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/fund-ii-documents";
import type { FundDocumentView } from "~/components/funds/fund-document";
import { forgetStoredToken, FundIIAccessGate, type FundIIDenial } from "~/components/funds/fund-ii-access-gate";
import { FundIIDocumentList } from "~/components/funds/fund-ii-document-list";
import { fundAccessCopy } from "~/content/fund-access";
import { getOptionalUser } from "~/modules/auth/guards.server";
import { fundAccessMessages } from "~/modules/fund-access/constants";
import { clearFundCookie, readFundCookie, setFundCookie } from "~/modules/fund-access/cookie.server";
import { checkFundToken, findAccessByToken } from "~/modules/fund-access/fund-access.server";
import { listFundDocuments, publicDate, toFundDocumentRead } from "~/modules/fund-documents/fund-documents.server";
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
    const user = await getOptionalUser(request);
    if (!user?.isAdmin) {
      const cookieToken = await readFundCookie(request, "fund-ii");
      if (!cookieToken) return denied("required", fundAccessMessages.tokenRequired, { status: 401 });
      // A cookie whose request was revoked or replaced: say so and drop it.
      if (!findAccessByToken(cookieToken, "fund-ii")) {
        return denied("invalid", fundAccessMessages.tokenInvalid, { status: 403, clearCookie: true });
      }
    }
    documents = listFundDocuments("fund-ii").map((row) => ({
      ...toFundDocumentRead(row, "text"),
      createdOn: publicDate(row.createdAt),
    }));
  } catch (error) {
    logError(error);
    return denied("failed", fundAccessMessages.validationFailed, { status: 500 });
  }
  return data({ access: "granted" as const, documents });
}

export default function FundIIDocuments({ loaderData }: Route.ComponentProps) {
  const c = fundAccessCopy.fundIIDocuments;
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <Link
        to="/fund-ii"
        className="inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {c.back}
      </Link>
      {loaderData.access === "granted" ? (
        <Granted documents={loaderData.documents} />
      ) : (
        <>
          <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">{c.gateTitle}</h1>
          <FundIIAccessGate denial={loaderData.denial} />
        </>
      )}
    </div>
  );
}

function Granted({ documents }: { documents: FundDocumentView[] }) {
  const c = fundAccessCopy.fundIIDocuments;
  // The access lives in the HttpOnly cookie; a token an earlier version of the page stored is dropped.
  useEffect(() => forgetStoredToken(), []);
  return (
    <>
      <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">{c.title}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">{c.intro}</p>
      <FundIIDocumentList documents={documents} />
      <p className="mt-6 text-xs text-slate-600 dark:text-slate-400">{c.note}</p>
    </>
  );
}
