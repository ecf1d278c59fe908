import { ArrowLeft } from "lucide-react";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/fund-i-documents";
import type { FundDocumentView } from "~/components/funds/fund-document";
import { FundIDocumentList } from "~/components/funds/fund-i-document-list";
import { fundAccessCopy } from "~/content/fund-access";
import { getOptionalUser } from "~/modules/auth/guards.server";
import { clearFundCookie, getFundAccess, readFundCookie, setFundCookie } from "~/modules/fund-access/cookie.server";
import { checkFundToken } from "~/modules/fund-access/fund-access.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
import { listFundDocuments, publicDate, toFundDocumentRead } from "~/modules/fund-documents/fund-documents.server";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: fundAccessCopy.fundIDocuments.metaTitle,
    description: fundAccessCopy.fundIDocuments.description,
    path: "/fund-i/documents",
    noindex: true,
  });

/**
 * The Fund I documents: for the holder of a live Fund I access cookie or an
 * admin (`?token=` from an e-mailed link becomes that cookie); anyone else goes to /fund-i/signup (a cookie that no longer works is
 * cleared on the way). docs/decisions/012-fund-access.md.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  // A link an admin e-mailed (after a revocation, say): its token becomes the cookie, the URL is cleaned.
  const token = new URL(request.url).searchParams.get("token");
  if (token !== null) {
    await enforceRateLimit("tokenCheck", context.clientAddress).catch(() => {
      throw redirect("/fund-i/signup");
    });
    const access = checkFundToken(token, "fund-i", "link");
    throw redirect(access ? "/fund-i/documents" : "/fund-i/signup", {
      headers: { "Set-Cookie": access ? await setFundCookie("fund-i", token) : await clearFundCookie("fund-i") },
    });
  }
  const user = await getOptionalUser(request);
  if (!user?.isAdmin && !(await getFundAccess(request, "fund-i"))) {
    const stale = (await readFundCookie(request, "fund-i")) !== null;
    throw redirect("/fund-i/signup", stale ? { headers: { "Set-Cookie": await clearFundCookie("fund-i") } } : undefined);
  }
  const documents: FundDocumentView[] = listFundDocuments("fund-i").map((row) => ({
    ...toFundDocumentRead(row, "text"),
    createdOn: publicDate(row.createdAt),
  }));
  return { documents };
}

export default function FundIDocuments({ loaderData }: Route.ComponentProps) {
  const c = fundAccessCopy.fundIDocuments;
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
      <Link
        to="/fund-i"
        className="inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {c.back}
      </Link>
      <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">{c.title}</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">{c.intro}</p>
      <FundIDocumentList documents={loaderData.documents} />
    </div>
  );
}
