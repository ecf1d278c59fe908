import { MailCheck, MailX } from "lucide-react";
import { data } from "react-router";
import type { Route } from "./+types/unsubscribe-newsletter";
import { MailLinkCard } from "~/components/layout/mail-link-card";
import { newsletterUnsubscribeCopy } from "~/content/newsletter";
import { OneClickUnsubscribe } from "~/modules/document-mail/schema";
import { readFormData } from "~/modules/http/form-data.server";
import { tokenParam } from "~/modules/http/token-param";
import { isNewsletterUnsubscribeTokenValid, unsubscribeFromNewsletter } from "~/modules/newsletter/newsletter.server";
import { NEWSLETTER_UNSUBSCRIBE_PATH } from "~/modules/newsletter/paths";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: newsletterUnsubscribeCopy.title,
    description: newsletterUnsubscribeCopy.description,
    path: NEWSLETTER_UNSUBSCRIBE_PATH,
    noindex: true,
  });

/** A subscriber's unsubscribe link, /unsubscribe/newsletter?token=…: a page with one button; no sign-in. 400 for a token this server did not sign. */
export function loader({ request }: Route.LoaderArgs) {
  const token = tokenParam(request);
  return isNewsletterUnsubscribeTokenValid(token) ? { token } : data({ token: null }, { status: 400 });
}

/**
 * The one-click unsubscribe (RFC 8058): a mail provider's POST of
 * `List-Unsubscribe=One-Click` to the link (no cookie, no Origin), or the
 * page's button, which posts the same body. Again is harmless (200, no
 * change). A bad token or body: 400, nothing changes.
 */
export async function action({ request }: Route.ActionArgs) {
  const body = OneClickUnsubscribe.safeParse(Object.fromEntries(await readFormData(request)));
  const done = body.success && unsubscribeFromNewsletter(tokenParam(request));
  return done ? { done: true } : data({ done: false }, { status: 400 });
}

export default function UnsubscribeNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  const c = newsletterUnsubscribeCopy;
  const token = actionData?.done === false ? null : loaderData.token;
  return (
    <MailLinkCard
      state={actionData?.done ? "done" : token ? "ask" : "invalid"}
      copy={c}
      action={`${NEWSLETTER_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token ?? "")}`}
      fields={{ "List-Unsubscribe": "One-Click" }}
      icons={{ ask: <MailX aria-hidden="true" className="size-6" />, done: <MailCheck aria-hidden="true" className="size-6" /> }}
      afterDone={<p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-300">{c.changeLater}</p>}
      invalidLink={{ to: "/", label: c.homeLink }}
    />
  );
}
