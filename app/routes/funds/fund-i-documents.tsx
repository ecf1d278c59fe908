import { redirect } from "react-router";
import type { Route } from "./+types/fund-i-documents";
import { FundDocumentsPage } from "~/components/funds/fund-document";
import { FundIDocumentList } from "~/components/funds/fund-i-document-list";
import { fundAccessCopy } from "~/content/fund-access";
import { getSessionUser } from "~/modules/auth/session.server";
import { fundDocuments } from "~/modules/documents/documents.server";
import { clearFundCookie, getFundAccess, readFundCookie, setFundCookie } from "~/modules/fund-access/cookie.server";
import { checkFundToken } from "~/modules/fund-access/fund-access.server";
import { enforceRateLimit } from "~/modules/http/rate-limit.server";
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
  const user = await getSessionUser(request);
  if (!user?.isAdmin && !(await getFundAccess(request, "fund-i"))) {
    const stale = (await readFundCookie(request, "fund-i")) !== null;
    throw redirect("/fund-i/signup", stale ? { headers: { "Set-Cookie": await clearFundCookie("fund-i") } } : undefined);
  }
  return { documents: fundDocuments.listForPage("fund-i", "text") };
}

export default function FundIDocuments({ loaderData }: Route.ComponentProps) {
  const c = fundAccessCopy.fundIDocuments;
  return (
    <FundDocumentsPage back={{ to: "/fund-i", label: c.back }} title={c.title} intro={c.intro}>
      <FundIDocumentList documents={loaderData.documents} />
    </FundDocumentsPage>
  );
}
