import { TriangleAlert } from "lucide-react";
import { BackLink } from "~/components/kit/back-link";
import type { Route } from "./+types/fund-payment-instructions";
import { PaymentDetails } from "~/components/capital/payment-details";
import { ErrorList, Field, StatusButton } from "~/components/kit/fields";
import { FreshCodeField } from "~/components/kit/fresh-code-field";
import { useIntentForm } from "~/components/kit/intent-form";
import { PageSection } from "~/components/kit/page-section";
import { EnhancedForm } from "~/components/ui/enhanced-form";
import { paymentInstructionsCopy as c } from "~/content/fund-operations";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { requireAdmin } from "~/modules/auth/guards.server";
import { adminDateTime } from "~/modules/dates/format";
import { PAYMENT_FIELD_MAX, PAYMENT_INSTRUCTIONS_INTENT, type PaymentField } from "~/modules/funds/payment-instructions";
import { groupAccount, paymentInstructionLines, readPaymentInstructions } from "~/modules/funds/payment-instructions.server";
import { pageMeta } from "~/modules/seo/meta";
import { answerPaymentInstructionsIntent, fundOfPage, type PaymentInstructionsAnswer } from "./fund-operations.server";

/**
 * /admin/funds/{slug}/payment-instructions (issue 24 §6): the bank account
 * investors pay the fund's calls into, as their notices show it, and the
 * form that changes it. The form asks for a fresh two-factor code beside the
 * details; every change is audited and mailed to all admins
 * (modules/funds/payment-instructions.server.ts).
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const fund = fundOfPage(params.slug);
  const current = readPaymentInstructions(fund.paymentInstructions);
  return {
    fund: { slug: fund.slug, name: fund.name },
    lines: current ? paymentInstructionLines(current) : null,
    // The form's starting values: the details saved now.
    saved: current
      ? ({
          beneficiary: current.beneficiary,
          bankName: current.bankName,
          bankAddress: current.bankAddress ?? "",
          account: groupAccount(current.account),
          swift: current.swift,
          routing: current.routing ?? "",
          reference: current.reference,
        } satisfies Record<PaymentField, string>)
      : null,
    lastChanged: current ? c.lastChanged(adminDateTime(current.changedAt), `${current.changedBy.name} (${current.changedBy.email})`) : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const fund = fundOfPage(params.slug);
  return answerPaymentInstructionsIntent(admin, fund, request, context.clientAddress);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: c.title, description: c.intro(args.data?.fund.name ?? ""), path: `${ADMIN_PATHS.funds}/${args.params.slug}/payment-instructions`, noindex: true });

type Loaded = Route.ComponentProps["loaderData"];

const FIELDS: { name: PaymentField; wide?: boolean; mono?: boolean; optional?: boolean }[] = [
  { name: "beneficiary", wide: true },
  { name: "bankName", wide: true },
  { name: "bankAddress", wide: true, optional: true },
  { name: "account", wide: true, mono: true },
  { name: "swift", mono: true },
  { name: "routing", mono: true, optional: true },
  { name: "reference", wide: true },
];

function ChangeForm({ action, saved }: { action: string; saved: Loaded["saved"] }) {
  const { fetcher, answer, errors, typed, busy } = useIntentForm<PaymentInstructionsAnswer>(PAYMENT_INSTRUCTIONS_INTENT);
  const hints: Partial<Record<PaymentField, string>> = c.hints;
  const fieldErrors = errors ?? {};
  const known = new Set<string>([...FIELDS.map((f) => f.name), "code"]);
  const formMessage = Object.keys(fieldErrors).some((key) => known.has(key)) ? undefined : fieldErrors.form;
  // A new answer gives the form new fields: the typed details back, the code field empty.
  const version = answer?.toast?.id ?? "saved";
  return (
    <EnhancedForm
      key={version}
      fetcher={fetcher}
      action={action}
      aria-labelledby="change-title"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="change-title" className="text-lg font-semibold">
        {saved ? c.change.title : c.change.set}
      </h2>
      <input type="hidden" name="intent" value={PAYMENT_INSTRUCTIONS_INTENT} />
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        {FIELDS.map((field) => (
          <Field
            key={field.name}
            id={`payment-${field.name}`}
            name={field.name}
            className={field.wide ? "sm:col-span-2" : undefined}
            label={c.fields[field.name]}
            hint={hints[field.name]}
            errors={fieldErrors[field.name]}
            required={!field.optional}
            maxLength={PAYMENT_FIELD_MAX[field.name]}
            autoComplete="off"
            spellCheck={field.mono ? false : undefined}
            autoCapitalize={field.mono ? "characters" : undefined}
            inputClassName={field.mono ? "font-mono tracking-wide" : ""}
            defaultValue={typed?.[field.name] ?? saved?.[field.name] ?? ""}
          />
        ))}
      </div>
      <p className="mt-5 flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
        {c.change.warning}
      </p>
      <FreshCodeField id="payment-code" className="mt-5" errors={fieldErrors.code} />
      <StatusButton className="mt-5" pending={busy} pendingLabel={c.change.submitting}>
        {c.change.submit}
      </StatusButton>
      <ErrorList id="payment-form-error" errors={formMessage} />
    </EnhancedForm>
  );
}

export default function FundPaymentInstructions({ loaderData }: Route.ComponentProps) {
  const { fund, lines, saved, lastChanged } = loaderData;
  const action = `${ADMIN_PATHS.funds}/${fund.slug}/payment-instructions`;
  return (
    <>
      <BackLink to={`${ADMIN_PATHS.funds}/${fund.slug}`}>{c.back(fund.name)}</BackLink>
      <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{c.title}</h1>
      <p className="mt-2 max-w-3xl text-sm text-slate-600 dark:text-slate-300">{c.intro(fund.name)}</p>
      <div className="mt-6 grid gap-6 lg:grid-cols-2 lg:items-start">
        <PageSection id="current" title={c.current} boxed>
          <PaymentDetails lines={lines} empty={c.notSet} standing={c.standing} />
          {lastChanged ? <p className="mt-3 text-xs text-slate-600 dark:text-slate-300">{lastChanged}</p> : null}
        </PageSection>
        <ChangeForm action={action} saved={saved} />
      </div>
    </>
  );
}
