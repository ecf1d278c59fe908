import { MailCheck, MailX } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/unsubscribe-documents";
import { MailLinkCard } from "~/components/layout/mail-link-card";
import { buttonClass } from "~/components/ui/form";
import { unsubscribeCopy } from "~/content/document-mail";
import { isUnsubscribeTokenValid, unsubscribeWithToken } from "~/modules/document-mail/document-mail.server";
import { UNSUBSCRIBE_PATH } from "~/modules/document-mail/paths";
import { OneClickUnsubscribe } from "~/modules/document-mail/schema";
import { readFormData } from "~/modules/http/form-data.server";
import { tokenParam } from "~/modules/http/token-param";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: unsubscribeCopy.title, description: unsubscribeCopy.description, path: UNSUBSCRIBE_PATH, noindex: true });

/** The List-Unsubscribe link, /unsubscribe/documents?token=…: a page with one button; no sign-in. 400 for a token this server did not sign. */
export function loader({ request }: Route.LoaderArgs) {
  const token = tokenParam(request);
  return isUnsubscribeTokenValid(token) ? { token } : data({ token: null }, { status: 400 });
}

/**
 * The one-click unsubscribe (RFC 8058): a mail provider's POST of
 * `List-Unsubscribe=One-Click` to the link (no cookie, no Origin), or the
 * page's button, which posts the same body. Turns the token's investor's
 * new-document e-mails off; again is harmless. A bad token or body: 400,
 * nothing changes.
 */
export async function action({ request }: Route.ActionArgs) {
  const body = OneClickUnsubscribe.safeParse(Object.fromEntries(await readFormData(request)));
  const done = body.success && unsubscribeWithToken(tokenParam(request));
  return done ? { done: true } : data({ done: false }, { status: 400 });
}

export default function UnsubscribeDocuments({ loaderData, actionData }: Route.ComponentProps) {
  const c = unsubscribeCopy;
  const token = actionData?.done === false ? null : loaderData.token;
  return (
    <MailLinkCard
      state={actionData?.done ? "done" : token ? "ask" : "invalid"}
      copy={c}
      action={`${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token ?? "")}`}
      fields={{ "List-Unsubscribe": "One-Click" }}
      icons={{ ask: <MailX aria-hidden="true" className="size-6" />, done: <MailCheck aria-hidden="true" className="size-6" /> }}
      afterDone={
        <>
          <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-300">{c.changeLater}</p>
          <Link to="/lp/account" className={buttonClass("secondary", "mt-4 w-full")}>
            {c.accountLink}
          </Link>
        </>
      }
      invalidLink={{ to: "/lp/account", label: c.accountLink }}
    />
  );
}
