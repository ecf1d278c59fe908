import { data } from "react-router";
import type { Route } from "./+types/newsletter";
import { NewsletterForm } from "~/components/layout/newsletter-form";
import { firm } from "~/content/firm";
import { newsletterCopy } from "~/content/newsletter";
import { handleNewsletterForm } from "~/modules/newsletter/subscribe-outcome.server";
import { outcomeInit } from "~/modules/http/json.server";
import { isEnhanced } from "~/modules/toast/enhanced";
import { redirectWithFlash, safeRedirectPath } from "~/modules/toast/flash.server";
import { pageMeta } from "~/modules/seo/meta";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { readFormData } from "~/modules/http/form-data.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Newsletter",
    description: `Subscribe to the ${firm.name} newsletter: quarterly notes on deeptech and our portfolio.`,
    path: "/newsletter",
  });

/**
 * Every newsletter form posts here. With JavaScript the form gets the outcome
 * as data; without it, the visitor goes back to the page they were on, with
 * the outcome carried by a flash message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const outcome = await handleNewsletterForm(formData, context.clientAddress);
  if (isEnhanced(formData)) {
    return data(outcome, outcomeInit(outcome));
  }
  const formId = String(formData.get("formId") ?? "").replace(/[^\w-]/g, "").slice(0, 40) || "newsletter-page";
  const redirectTo = safeRedirectPath(formData.get("redirectTo"), "/newsletter");
  return redirectWithFlash(`${redirectTo}#${formId}`, {
    toast: outcome.toast ?? undefined,
    form: {
      formId,
      status: outcome.status,
      fieldErrors: outcome.result.error ? (outcome.result.error as Record<string, string[]>) : undefined,
      values:
        outcome.status === "error" ? { email: String(formData.get("email") ?? "").slice(0, 254) } : undefined,
    },
  });
}

export default function NewsletterPage() {
  return (
    <section className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">{newsletterCopy.heroTitle}</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">{newsletterCopy.heroText}</p>
      <div className="mt-6">
        <NewsletterForm formId="newsletter-page" />
      </div>
    </section>
  );
}
