import { ArrowLeft, ArrowRight } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/fund-detail";
import { StatusBadge } from "~/components/site/status-badge";
import { buttonClass, Card } from "~/components/ui/form";
import { funds, fundsContent, type FundKey } from "~/content/funds";
import { pageMeta } from "~/modules/seo/meta";

/** /fund-i and /fund-ii share this module; the route's path says which fund to show. */
export function loader({ pattern }: Route.LoaderArgs) {
  // React Router's pattern joins the route paths: "fund-i" (no leading slash).
  const path = pattern.replace(/^\//, "");
  const fund: FundKey | null = path === "fund-ii" ? "fund-ii" : path === "fund-i" ? "fund-i" : null;
  if (!fund) throw data(null, { status: 404 });
  return { fund };
}

export const meta: Route.MetaFunction = (args) => {
  const fund = funds[args.loaderData?.fund ?? "fund-i"];
  return pageMeta(args, { title: fund.name, description: fund.description, path: fund.path });
};

export default function FundDetail({ loaderData }: Route.ComponentProps) {
  const fund = funds[loaderData.fund];
  const c = fundsContent.detail;
  return (
    <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
      <Link
        to="/deeptech-fund"
        className="inline-flex items-center gap-2 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {c.back}
      </Link>

      <div className="mt-6 flex flex-wrap items-center gap-4">
        <h1 className="text-4xl font-bold tracking-tight">{fund.name}</h1>
        <StatusBadge status={fund.status} />
      </div>

      <div className="mt-10 grid gap-8 lg:grid-cols-3">
        <section aria-labelledby="overview-title" className="lg:col-span-2">
          <h2 id="overview-title" className="text-2xl font-semibold">
            {c.overviewTitle}
          </h2>
          {fund.overview.map((paragraph) => (
            <p key={paragraph} className="mt-4 leading-7 text-slate-700 dark:text-slate-300">
              {paragraph}
            </p>
          ))}
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to={fund.cta.to} className={buttonClass("primary", "px-6 py-3 text-base")}>
              {fund.cta.label}
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
            {fund.secondaryCta ? (
              <Link to={fund.secondaryCta.to} className={buttonClass("secondary", "px-6 py-3 text-base")}>
                {fund.secondaryCta.label}
              </Link>
            ) : null}
          </div>
          {fund.note ? <p className="mt-4 text-sm text-slate-600 dark:text-slate-300">{fund.note}</p> : null}
        </section>

        <Card className="self-start">
          <h2 className="text-lg font-semibold">{c.termsTitle}</h2>
          <dl className="mt-4 divide-y divide-slate-200 text-sm dark:divide-slate-800">
            {fund.terms.map((term) => (
              <div key={term.label} className="py-3">
                <dt className="text-slate-600 dark:text-slate-300">{term.label}</dt>
                <dd className="mt-0.5 font-semibold">{term.value}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </div>
  );
}
