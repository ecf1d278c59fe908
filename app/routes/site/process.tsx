import type { Route } from "./+types/process";
import { PITCH_FORM_ID, PitchForm } from "~/components/layout/pitch-form";
import { Card } from "~/components/ui/form";
import { StaticToast } from "~/components/ui/toaster";
import { processContent } from "~/content/process";
import { handlePitchForm } from "~/modules/pitches/submit-outcome.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerConform } from "~/modules/http/form-answer.server";
import { PITCH_STAMP_FIELD } from "~/modules/pitches/constants";
import { keepRetryAfter } from "~/modules/http/keep-retry-after";
import { issueFormStamp } from "~/modules/pitches/form-stamp.server";

/** A rate-limited answer keeps its Retry-After (DESIGN.md §4). */
export const headers = keepRetryAfter;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Investment Process",
    description:
      "How we invest: initial review, deep dive, partner meeting, term sheet and partnership. Submit your pitch; we respond within 5 business days.",
    path: "/process",
  });

/** The pitch form's signed render time (decision 026); this page is therefore never served from the page cache. */
export function loader() {
  return { formStamp: issueFormStamp() };
}

/**
 * The pitch form's action, through answerForm: an enhanced post gets the
 * outcome with its status (429 and Retry-After when rate-limited); a plain
 * post a 303 to /process#pitch whose flash carries the toast and the form's
 * outcome (field errors, the typed values; the deck is not kept). A multipart
 * body refused before it is read (a deck over 25 MB, a full disk, no deck's
 * place left today) cannot say whether it came from JavaScript: its answer is
 * the data with its status, which the page renders as well.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { outcome, enhanced, read } = await handlePitchForm(request, context.clientAddress);
  return answerConform(
    { enhanced },
    {
      formId: PITCH_FORM_ID,
      httpStatus: outcome.httpStatus,
      toast: outcome.toast,
      result: outcome.result,
      retryAfterSeconds: outcome.retryAfterSeconds,
      redirectTo: read ? "/process#pitch" : undefined,
      keep: PITCH_KEPT_FIELDS,
      // The wait also in the body, as the form's outcome has always carried it (the header says it too).
      extra: outcome.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: outcome.retryAfterSeconds },
    },
  );
}

/** The fields typed again after a refused post without JavaScript, the signed render time included (the fill time counts from the first view). */
const PITCH_KEPT_FIELDS = ["name", "email", "company", "stage", "deckUrl", PITCH_STAMP_FIELD, "message"];

export default function Process({ loaderData, actionData }: Route.ComponentProps) {
  const c = processContent;
  return (
    <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{c.title}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-600 dark:text-slate-300">{c.intro}</p>

      <Card className="mt-10">
        <h2 className="text-2xl font-semibold">{c.mission.title}</h2>
        <p className="mt-3 text-slate-700 dark:text-slate-300">{c.mission.text}</p>
      </Card>

      <section className="mt-14" aria-labelledby="steps-title">
        <h2 id="steps-title" className="text-2xl font-semibold">
          {c.stepsTitle}
        </h2>
        <ol className="mt-6 grid gap-4 md:grid-cols-5">
          {c.steps.map((step, i) => (
            <li
              key={step.title}
              className="rounded-xl border border-slate-200 p-5 dark:border-slate-800"
            >
              <span className="flex size-8 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white dark:bg-brand-300 dark:text-slate-950">
                {i + 1}
              </span>
              <h3 className="mt-3 font-semibold">{step.title}</h3>
              <p className="mt-1 text-sm font-medium text-brand-700 dark:text-brand-300">{step.timeframe}</p>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{step.text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-6 rounded-lg bg-brand-50 p-4 text-sm font-medium text-brand-900 dark:bg-brand-900 dark:text-brand-50">
          {c.commitment}
        </p>
      </section>

      <section id="pitch" className="mt-14 scroll-mt-36" aria-labelledby="pitch-title">
        <Card>
          <h2 id="pitch-title" className="text-2xl font-semibold">
            {c.pitch.title}
          </h2>
          <p className="mt-2 mb-6 text-sm text-slate-600 dark:text-slate-300">{c.pitch.intro}</p>
          {actionData?.toast ? (
            // Without JavaScript: the server's refusal (e.g. too many pitches) as a notification.
            <StaticToast toast={{ id: "pitch-result", variant: "default", ...actionData.toast }} />
          ) : null}
          <PitchForm serverResult={actionData?.result} formStamp={loaderData.formStamp} />
        </Card>
      </section>
    </div>
  );
}
