import { LogIn } from "lucide-react";
import type { FormEvent } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/login";
import { Button, buttonClass, Card, inputClass, Label } from "~/components/ui/form";
import { toast } from "~/components/ui/toast-store";
import { loginContent } from "~/content/login";
import { pageMeta } from "~/modules/seo/meta";
import { redirectWithFlash } from "~/modules/toast/flash.server";
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
  return redirectWithFlash("/login", { toast: loginContent.toast });
}

export default function Login() {
  const c = loginContent;

  // With JavaScript: no request at all, only the notice.
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    toast(c.toast);
  }

  return (
    <div className="mx-auto max-w-md px-4 py-16 sm:px-6">
      <Card>
        <div className="flex flex-col items-center text-center">
          <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-900 dark:text-brand-200">
            <LogIn aria-hidden="true" className="size-6" />
          </span>
          <h1 className="mt-4 text-2xl font-bold tracking-tight">{c.title}</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{c.intro}</p>
        </div>
        <form method="post" action="/login" onSubmit={onSubmit} className="mt-6 space-y-4">
          <div>
            <Label htmlFor="login-username">{c.username}</Label>
            <input
              id="login-username"
              name="username"
              type="text"
              required
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              className={inputClass}
            />
          </div>
          <div>
            <Label htmlFor="login-password">{c.password}</Label>
            <input
              id="login-password"
              name="password"
              type="password"
              required
              autoComplete="current-password"
              className={inputClass}
            />
          </div>
          <Button type="submit" className="w-full">
            {c.submit}
          </Button>
        </form>
        <div className="mt-6 border-t border-slate-200 pt-6 text-center dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-300">{c.requestText}</p>
          <Link to="/lp/register" className={buttonClass("secondary", "mt-3 w-full")}>
            {c.requestAccess}
          </Link>
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">
            {`${c.investorText} `}
            <Link to="/lp/login" className="font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300">
              {c.investorLink}
            </Link>
            .
          </p>
        </div>
      </Card>
    </div>
  );
}
