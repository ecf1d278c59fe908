import type { Route } from "./+types/newsletter";
import { NewsletterForm } from "~/components/layout/newsletter-form";
import { firm } from "~/content/firm";
import { newsletterCopy } from "~/content/newsletter";
import { handleNewsletterForm } from "~/modules/newsletter/subscribe-outcome.server";
import { answerConform } from "~/modules/http/form-answer.server";
import { safeRedirectPath } from "~/modules/toast/flash.server";
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
 * Every newsletter form posts here, answered through answerForm. With
 * JavaScript the form gets the outcome as data with its status (429 and
 * Retry-After when rate-limited); without it, the visitor goes back (303) to
 * the page they were on, with the outcome carried by a flash message.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const outcome = await handleNewsletterForm(formData, context.clientAddress);
  const formId = String(formData.get("formId") ?? "").replace(/[^\w-]/g, "").slice(0, 40) || "newsletter-page";
  const redirectTo = safeRedirectPath(formData.get("redirectTo"), "/newsletter");
  return answerConform(formData, {
    formId,
    httpStatus: outcome.httpStatus,
    toast: outcome.toast,
    result: outcome.result,
    retryAfterSeconds: outcome.retryAfterSeconds,
    redirectTo: `${redirectTo}#${formId}`,
    keep: ["email"],
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
