import { MailCheck, MailX, TriangleAlert } from "lucide-react";
import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/unsubscribe-newsletter";
import { AccountCardHeader } from "~/components/portal/account-field";
import { Button, buttonClass, Card } from "~/components/ui/form";
import { newsletterUnsubscribeCopy } from "~/content/newsletter";
import { OneClickUnsubscribe } from "~/modules/document-mail/schema";
import { readFormData } from "~/modules/http/form-data.server";
import { isNewsletterUnsubscribeTokenValid, unsubscribeFromNewsletter } from "~/modules/newsletter/newsletter.server";
import { NEWSLETTER_UNSUBSCRIBE_PATH } from "~/modules/newsletter/schema";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: newsletterUnsubscribeCopy.title,
    description: newsletterUnsubscribeCopy.description,
    path: NEWSLETTER_UNSUBSCRIBE_PATH,
    noindex: true,
  });

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token");

/** A subscriber's unsubscribe link, /unsubscribe/newsletter?token=…: a page with one button; no sign-in. 400 for a token this server did not sign. */
export function loader({ request }: Route.LoaderArgs) {
  const token = tokenOf(request);
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
  const done = body.success && unsubscribeFromNewsletter(tokenOf(request));
  return done ? { done: true } : data({ done: false }, { status: 400 });
}

export default function UnsubscribeNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  const c = newsletterUnsubscribeCopy;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const token = actionData?.done === false ? null : loaderData.token;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <Card>
        {actionData?.done ? (
          <>
            <div role="status">
              <AccountCardHeader icon={<MailCheck aria-hidden="true" className="size-6" />} title={c.doneTitle} intro={c.done} />
            </div>
            <p className="mt-6 text-center text-sm text-slate-600 dark:text-slate-300">{c.changeLater}</p>
          </>
        ) : token ? (
          <>
            <AccountCardHeader icon={<MailX aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
            <Form method="post" action={`${NEWSLETTER_UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}`} className="mt-6">
              <input type="hidden" name="List-Unsubscribe" value="One-Click" />
              <Button type="submit" className="w-full" disabled={busy}>
                {busy ? c.submitting : c.submit}
              </Button>
            </Form>
          </>
        ) : (
          <>
            <AccountCardHeader icon={<TriangleAlert aria-hidden="true" className="size-6" />} title={c.invalidTitle} intro={c.invalid} />
            <Link to="/" className={buttonClass("secondary", "mt-6 w-full")}>
              {c.homeLink}
            </Link>
          </>
        )}
      </Card>
    </div>
  );
}
