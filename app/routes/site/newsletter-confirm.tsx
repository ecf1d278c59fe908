import { Mail, MailCheck, TriangleAlert } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/newsletter-confirm";
import { AccountCardHeader } from "~/components/portal/account-field";
import { Button, buttonClass, Card } from "~/components/ui/form";
import { newsletterConfirmCopy } from "~/content/newsletter";
import { confirmSubscription, isConfirmTokenValid } from "~/modules/newsletter/newsletter.server";
import { CONFIRM_PATH } from "~/modules/newsletter/schema";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: newsletterConfirmCopy.title, description: newsletterConfirmCopy.description, path: CONFIRM_PATH, noindex: true });

const tokenOf = (request: Request) => new URL(request.url).searchParams.get("token");

/** Where a confirmation lands (Post/Redirect/Get): the thank-you, with no token in the address. */
const CONFIRMED_PATH = `${CONFIRM_PATH}?confirmed=1`;

/**
 * The confirmation link, /newsletter/confirm?token=…: a page with one button.
 * The GET never confirms (mail scanners open links); 400 for a token that is
 * unknown, tampered with, expired or already used. `?confirmed=1` (no token)
 * is the thank-you the button's POST leads to.
 */
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  if (token === null && url.searchParams.get("confirmed") === "1") return { token: null, confirmed: true };
  return isConfirmTokenValid(token) ? { token, confirmed: false } : data({ token: null, confirmed: false }, { status: 400 });
}

/** The button's POST: confirms and records the consent, then shows the thank-you; a bad or spent token is 400 and changes nothing. */
export function action({ request, context }: Route.ActionArgs) {
  const done = confirmSubscription(tokenOf(request), context.clientAddress);
  return done ? redirect(CONFIRMED_PATH, 303) : data({ done: false }, { status: 400 });
}

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const c = newsletterConfirmCopy;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const token = actionData?.done === false ? null : loaderData.token;
  const confirmed = loaderData.confirmed;
  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <Card>
        {confirmed ? (
          <div role="status">
            <AccountCardHeader icon={<MailCheck aria-hidden="true" className="size-6" />} title={c.doneTitle} intro={c.done} />
          </div>
        ) : token ? (
          <>
            <AccountCardHeader icon={<Mail aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
            <Form method="post" action={`${CONFIRM_PATH}?token=${encodeURIComponent(token)}`} className="mt-6">
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
