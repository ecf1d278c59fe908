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
import { buttonClass } from "~/components/ui/form";
import { focusContent, type FocusIcon } from "~/content/focus";
import { pageMeta } from "~/modules/seo/meta";

// The copy travels as loader data, so it is not also shipped in the page's JavaScript.
export function loader() {
  return { content: focusContent };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: args.loaderData?.content.title ?? "",
    description: args.loaderData?.content.description ?? "",
    path: "/investment-focus",
  });

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
    <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
      <h1 className="text-4xl font-bold tracking-tight">{c.title}</h1>
      <p className="mt-4 max-w-3xl text-lg text-slate-600 dark:text-slate-300">{c.intro}</p>

      <section className="mt-12" aria-labelledby="sectors-title">
        <h2 id="sectors-title" className="sr-only">
          {c.sectorsTitle}
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {c.sectors.map((sector) => {
            const Icon = icons[sector.icon];
            return (
              <li
                key={sector.title}
                className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
              >
                <span className="flex size-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700 dark:bg-brand-900 dark:text-brand-200">
                  <Icon aria-hidden="true" className="size-6" />
                </span>
                <h3 className="mt-4 text-lg font-semibold">{sector.title}</h3>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{sector.text}</p>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="mt-20" aria-labelledby="criteria-title">
        <h2 id="criteria-title" className="text-3xl font-bold tracking-tight">
          {c.criteriaTitle}
        </h2>
        <p className="mt-3 text-slate-600 dark:text-slate-300">{c.criteriaIntro}</p>
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {c.criteria.map((item) => {
            const Icon = icons[item.icon];
            return (
              <li
                key={item.label}
                className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
              >
                <Icon aria-hidden="true" className="size-6 text-brand-700 dark:text-brand-300" />
                <h3 className="mt-3 text-sm font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300">
                  {item.label}
                </h3>
                <p className="mt-1 text-xl font-bold">{item.value}</p>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{item.note}</p>
              </li>
            );
          })}
        </ul>
      </section>

      <section className="mt-20 grid gap-8 lg:grid-cols-3" aria-labelledby="look-for-title">
        <h2 id="look-for-title" className="text-3xl font-bold tracking-tight">
          {c.lookForTitle}
        </h2>
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
    </div>
  );
}
