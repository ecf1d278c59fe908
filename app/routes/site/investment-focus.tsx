import {
  ArrowRight,
  Atom,
  Blocks,
  Bot,
  Brain,
  BrainCircuit,
  CheckCircle2,
  Dna,
  Globe,
  Layers,
  Rocket,
  TrendingUp,
  Wallet,
  Wrench,
  type LucideIcon,
} from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/investment-focus";
import { IconCard, ContentPage, SectionTitle } from "~/components/site/icon-card";
import { buttonClass } from "~/components/ui/form";
import { focusContent, type FocusIcon } from "~/content/focus";
import { contentPageMeta } from "~/modules/seo/meta";

// The copy travels as loader data, so it is not also shipped in the page's JavaScript.
export function loader() {
  return { content: focusContent };
}

export const meta: Route.MetaFunction = (args) => contentPageMeta(args, "/investment-focus");

const icons: Record<FocusIcon, LucideIcon> = {
  materials: Layers,
  ai: BrainCircuit,
  biotech: Dna,
  blockchain: Blocks,
  neuro: Brain,
  quantum: Atom,
  robotics: Bot,
  space: Rocket,
  check: Wallet,
  stage: TrendingUp,
  geography: Globe,
  traction: Wrench,
};

export default function InvestmentFocus({ loaderData }: Route.ComponentProps) {
  const c = loaderData.content;
  return (
    <ContentPage title={c.title} intro={c.intro}>
      <section className="mt-12" aria-labelledby="sectors-title">
        <SectionTitle id="sectors-title" srOnly>
          {c.sectorsTitle}
        </SectionTitle>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {c.sectors.map((sector) => {
            const Icon = icons[sector.icon];
            return (
              <IconCard
                key={sector.title}
                icon={
                  <span className="flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700 dark:bg-brand-900 dark:text-brand-200">
                    <Icon aria-hidden="true" className="size-6" />
                  </span>
                }
                title={sector.title}
                headingClassName="mt-4 text-lg font-semibold"
              >
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{sector.text}</p>
              </IconCard>
            );
          })}
        </ul>
      </section>

      <section className="mt-20" aria-labelledby="criteria-title">
        <SectionTitle id="criteria-title">{c.criteriaTitle}</SectionTitle>
        <p className="mt-3 text-slate-600 dark:text-slate-300">{c.criteriaIntro}</p>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {c.criteria.map((item) => {
            const Icon = icons[item.icon];
            return (
              <IconCard
                key={item.label}
                icon={<Icon aria-hidden="true" className="size-6 text-brand-700 dark:text-brand-300" />}
                title={item.label}
                headingClassName="mt-3 text-sm font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300"
              >
                <p className="mt-1 text-xl font-bold">{item.value}</p>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{item.note}</p>
              </IconCard>
            );
          })}
        </ul>
      </section>

      <section className="mt-20 grid gap-8 lg:grid-cols-3" aria-labelledby="look-for-title">
        <SectionTitle id="look-for-title">{c.lookForTitle}</SectionTitle>
        <div className="lg:col-span-2">
          <ul className="space-y-4">
            {c.lookFor.map((item) => (
              <li key={item} className="flex gap-3">
                <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-300" />
                <span className="text-slate-700 dark:text-slate-300">{item}</span>
              </li>
            ))}
          </ul>
          <div className="mt-10 flex flex-wrap items-center gap-4 rounded-xl bg-brand-50 p-6 dark:bg-brand-900">
            <p className="font-semibold text-brand-900 dark:text-brand-50">{c.cta.text}</p>
            <Link to="/process#pitch" className={buttonClass("primary")}>
              {c.cta.link}
              <ArrowRight aria-hidden="true" className="size-4" />
            </Link>
          </div>
        </div>
      </section>
    </ContentPage>
  );
}
