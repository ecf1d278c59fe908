import { Link } from "react-router";
import type { Route } from "./+types/unsubscribe-documents";
import { UnsubscribeCard, unsubscribeMeta, type UnsubscribePage } from "~/components/layout/unsubscribe-card";
import { buttonClass } from "~/components/ui/form";
import { unsubscribeCopy } from "~/content/document-mail";
import { isUnsubscribeTokenValid, unsubscribeWithToken } from "~/modules/document-mail/document-mail.server";
import { UNSUBSCRIBE_PATH } from "~/modules/document-mail/paths";
import { pageMeta } from "~/modules/seo/meta";
import { oneClickPage, oneClickUnsubscribe } from "./one-click-unsubscribe.server";

const PAGE: UnsubscribePage = {
  path: UNSUBSCRIBE_PATH,
  copy: unsubscribeCopy,
  afterDone: (
    <>
      <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-300">{unsubscribeCopy.changeLater}</p>
      <Link to="/lp/account" className={buttonClass("secondary", "mt-4 w-full")}>
        {unsubscribeCopy.accountLink}
      </Link>
    </>
  ),
  invalidLink: { to: "/lp/account", label: unsubscribeCopy.accountLink },
};

export const meta: Route.MetaFunction = (args) => pageMeta(args, unsubscribeMeta(PAGE));

/** The List-Unsubscribe link, /unsubscribe/documents?token=…: a page with one button; no sign-in. 400 for a token this server did not sign. */
export const loader = ({ request }: Route.LoaderArgs) => oneClickPage(request, (token) => isUnsubscribeTokenValid(token));

/** The one-click unsubscribe (RFC 8058; see oneClickUnsubscribe): turns the token's investor's new-document e-mails off; again is harmless. 200, never a redirect: why it is not answerForm's is there. */
export const action = ({ request }: Route.ActionArgs) => oneClickUnsubscribe(request, (token) => unsubscribeWithToken(token));

export default function UnsubscribeDocuments({ loaderData, actionData }: Route.ComponentProps) {
  return <UnsubscribeCard page={PAGE} token={loaderData.token} done={actionData?.done} />;
}
