import { LogIn } from "lucide-react";
import type { FormEvent } from "react";
import type { Route } from "./+types/login";
import { AccountCardHeader } from "~/components/portal/account-field";
import { AccountCardPage, RequestAccessFooter } from "~/components/portal/sign-in-page";
import { Field } from "~/components/kit/fields";
import { Button } from "~/components/ui/form";
import { toast } from "~/components/ui/toast-store";
import { loginContent } from "~/content/login";
import { pageMeta } from "~/modules/seo/meta";
import { answerForm } from "~/modules/http/form-answer.server";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: loginContent.title, description: loginContent.description, path: "/login", noindex: true });

/**
 * The placeholder client login without JavaScript. There is no authentication
 * behind it: the credentials are neither read nor kept, only the notice is shown.
 */
export async function action() {
  // Through answerForm as a plain post (the body is not read: nothing typed is kept or sent back).
  return answerForm({ enhanced: false }, { httpStatus: 200, toast: loginContent.toast, redirectTo: "/login" });
}

export default function Login() {
  const c = loginContent;

  // With JavaScript: no request at all, only the notice.
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    toast(c.toast);
  }

  return (
    <AccountCardPage>
      <AccountCardHeader icon={<LogIn aria-hidden="true" className="size-6" />} title={c.title} intro={c.intro} />
      <form method="post" action="/login" onSubmit={onSubmit} className="mt-6 space-y-4">
        <Field label={c.username} id="login-username" name="username" required autoComplete="username" autoCapitalize="none" spellCheck={false} />
        <Field label={c.password} id="login-password" name="password" type="password" required autoComplete="current-password" />
        <Button type="submit" className="w-full">
          {c.submit}
        </Button>
      </form>
      <RequestAccessFooter copy={{ requestText: c.requestText, requestAccess: c.requestAccess, text: c.investorText, link: c.investorLink }} to="/lp/login" end="." />
    </AccountCardPage>
  );
}
