import type { Route } from "./+types/unsubscribe-newsletter";
import { UnsubscribeCard, unsubscribeMeta, type UnsubscribePage } from "~/components/layout/unsubscribe-card";
import { newsletterUnsubscribeCopy } from "~/content/newsletter";
import { isNewsletterUnsubscribeTokenValid, unsubscribeFromNewsletter } from "~/modules/newsletter/newsletter.server";
import { NEWSLETTER_UNSUBSCRIBE_PATH } from "~/modules/newsletter/paths";
import { pageMeta } from "~/modules/seo/meta";
import { oneClickPage, oneClickUnsubscribe } from "./one-click-unsubscribe.server";

const PAGE: UnsubscribePage = {
  path: NEWSLETTER_UNSUBSCRIBE_PATH,
  copy: newsletterUnsubscribeCopy,
  afterDone: <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-300">{newsletterUnsubscribeCopy.changeLater}</p>,
  invalidLink: { to: "/", label: newsletterUnsubscribeCopy.homeLink },
};

export const meta: Route.MetaFunction = (args) => pageMeta(args, unsubscribeMeta(PAGE));

/** A subscriber's unsubscribe link, /unsubscribe/newsletter?token=…: a page with one button; no sign-in. 400 for a token this server did not sign. */
export const loader = ({ request }: Route.LoaderArgs) => oneClickPage(request, (token) => isNewsletterUnsubscribeTokenValid(token));

/** The one-click unsubscribe (RFC 8058; see oneClickUnsubscribe). Again is harmless (200, no change). 200, never a redirect: why it is not answerForm's is there. */
export const action = ({ request }: Route.ActionArgs) => oneClickUnsubscribe(request, (token) => unsubscribeFromNewsletter(token));

export default function UnsubscribeNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  return <UnsubscribeCard page={PAGE} token={loaderData.token} done={actionData?.done} />;
}
