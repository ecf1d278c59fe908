import { ArrowRight, CalendarClock, Handshake, Lightbulb, Target, Users, type LucideIcon } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/deeptech-fund";
import { ExternalLink } from "~/components/site/external-link";
import { IconCard, ContentPage, SectionTitle } from "~/components/site/icon-card";
import { StatusBadge } from "~/components/site/status-badge";
import { buttonClass } from "~/components/ui/form";
import { FUND_KEYS, funds, fundsContent, type StructureIcon } from "~/content/funds";
import { contentPageMeta } from "~/modules/seo/meta";

// The copy travels as loader data, so it is not also shipped in the page's JavaScript.
export function loader() {
  return { content: fundsContent, funds: FUND_KEYS.map((key) => funds[key]) };
}

export const meta: Route.MetaFunction = (args) => contentPageMeta(args, "/deeptech-fund");

const structureIcons: Record<StructureIcon, LucideIcon> = {
  life: CalendarClock,
  lps: Users,
  strategy: Target,
  gp: Handshake,
  value: Lightbulb,
};

export default function DeeptechFund({ loaderData }: Route.ComponentProps) {
  const c = loaderData.content;
  return (
    <ContentPage title={c.title} intro={c.intro}>
      <section aria-labelledby="funds-title" className="mt-12">
        <SectionTitle id="funds-title" srOnly>
          {c.fundsTitle}
        </SectionTitle>
        <ul className="grid gap-6 md:grid-cols-2">
          {loaderData.funds.map((fund) => {
            const key = fund.key;
            return (
              <li
                key={key}
                className={`flex flex-col rounded-xl border bg-white p-6 shadow-sm sm:p-8 dark:bg-slate-900 ${
                  fund.status === "Active"
                    ? "border-brand-300 ring-1 ring-brand-300 dark:border-brand-700 dark:ring-brand-700"
                    : "border-slate-200 dark:border-slate-800"
                }`}
              >
                <div className="flex flex-wrap items-center justify-between gap-3">
                  <h3 className="text-2xl font-semibold">{fund.name}</h3>
                  <StatusBadge status={fund.status} />
                </div>
                <p className="mt-4 text-slate-600 dark:text-slate-300">{fund.summary}</p>
                <dl className="mt-6 grid grid-cols-3 gap-4">
                  {fund.highlights.map((item) => (
                    <div key={item.label} className="flex flex-col-reverse">
                      <dt className="text-xs text-slate-600 dark:text-slate-300">{item.label}</dt>
                      <dd className="text-lg font-bold text-brand-700 dark:text-brand-300">{item.value}</dd>
                    </div>
                  ))}
                </dl>
                <div className="mt-auto flex flex-wrap items-center gap-4 pt-8">
                  <Link to={fund.cta.to} className={buttonClass("primary")}>
                    {fund.cta.label}
                    <ArrowRight aria-hidden="true" className="size-4" />
                  </Link>
                  <Link
                    to={fund.path}
                    className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
                  >
                    {fund.detailLink}
                  </Link>
                </div>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="structure-title" className="mt-20">
        <SectionTitle id="structure-title">{c.structure.title}</SectionTitle>
        <ul className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {c.structure.items.map((item) => {
            const Icon = structureIcons[item.icon];
            return (
              <IconCard key={item.title} icon={<Icon aria-hidden="true" className="size-6 text-brand-700 dark:text-brand-300" />} title={item.title}>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{item.text}</p>
                {"points" in item ? (
                  <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700 marker:text-brand-600 dark:text-slate-300 dark:marker:text-brand-300">
                    {item.points.map((point) => (
                      <li key={point}>{point}</li>
                    ))}
                  </ul>
                ) : null}
              </IconCard>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="partners-title" className="mt-20">
        <SectionTitle id="partners-title">{c.partners.title}</SectionTitle>
        <p className="mt-3 text-slate-600 dark:text-slate-300">{c.partners.intro}</p>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {c.partners.items.map((partner) => (
            <li
              key={partner.name}
              className="flex flex-col rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
            >
              <h3 className="text-lg font-semibold">{partner.name}</h3>
              <p className="mt-2 flex-1 text-sm text-slate-600 dark:text-slate-300">{partner.text}</p>
              <ExternalLink
                href={partner.url}
                className="mt-4 inline-flex items-center gap-1.5 self-start text-sm font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300"
              >
                {new URL(partner.url).hostname}
              </ExternalLink>
            </li>
          ))}
        </ul>
      </section>
    </ContentPage>
  );
}
