import { Mail, MailCheck } from "lucide-react";
import { data, redirect } from "react-router";
import type { Route } from "./+types/newsletter-confirm";
import { MailLinkCard } from "~/components/layout/mail-link-card";
import { newsletterConfirmCopy } from "~/content/newsletter";
import { tokenParam } from "~/modules/http/token-param";
import { confirmSubscription, isConfirmTokenValid } from "~/modules/newsletter/newsletter.server";
import { CONFIRM_PATH } from "~/modules/newsletter/paths";
import { pageMeta } from "~/modules/seo/meta";

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: newsletterConfirmCopy.title, description: newsletterConfirmCopy.description, path: CONFIRM_PATH, noindex: true });

/** Where a confirmation lands (Post/Redirect/Get): the thank-you, with no token in the address. */
const CONFIRMED_PATH = `${CONFIRM_PATH}?confirmed=1`;

/**
 * The confirmation link, /newsletter/confirm?token=…: a page with one button.
 * The GET never confirms (mail scanners open links); 400 for a token that is
 * unknown, tampered with, expired or already used. `?confirmed=1` (no token)
 * is the thank-you the button's POST leads to.
 */
export function loader({ request }: Route.LoaderArgs) {
  const token = tokenParam(request);
  if (token === null && new URL(request.url).searchParams.get("confirmed") === "1") return { token: null, confirmed: true };
  return isConfirmTokenValid(token) ? { token, confirmed: false } : data({ token: null, confirmed: false }, { status: 400 });
}

/**
 * The button's POST: confirms and records the consent, then shows the thank-you; a bad or spent token is 400 and changes nothing.
 * Not through answerForm (issue 23 §2): success is already a 303 to the thank-you (Post/Redirect/Get), and the refusal is
 * SPEC's 400 page for the link, rendered in place: the token is in the address, so a redirect back would repeat it in a
 * Location and another logged GET, and the form has nothing typed to carry back.
 */
export function action({ request, context }: Route.ActionArgs) {
  const done = confirmSubscription(tokenParam(request), context.clientAddress);
  return done ? redirect(CONFIRMED_PATH, 303) : data({ done: false }, { status: 400 });
}

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const c = newsletterConfirmCopy;
  const token = actionData?.done === false ? null : loaderData.token;
  return (
    <MailLinkCard
      state={loaderData.confirmed ? "done" : token ? "ask" : "invalid"}
      copy={c}
      action={`${CONFIRM_PATH}?token=${encodeURIComponent(token ?? "")}`}
      icons={{ ask: <Mail aria-hidden="true" className="size-6" />, done: <MailCheck aria-hidden="true" className="size-6" /> }}
      invalidLink={{ to: "/", label: c.homeLink }}
    />
  );
}
