import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { firm } from "~/content/firm";

export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  { title: `404 Page Not Found | ${firm.name}` },
  { name: "robots", content: "noindex" },
];

/** Any path no route matches: '404 Page Not Found', with HTTP status 404. */
export default function NotFound() {
  return (
    <section className="mx-auto flex min-h-[50vh] max-w-2xl flex-col items-start justify-center gap-4 px-6 py-24">
      <h1 className="text-3xl font-bold tracking-tight">404 Page Not Found</h1>
      <p className="text-slate-600 dark:text-slate-300">Did you forget to add the page to the router?</p>
      <a href="/" className="font-medium text-brand-700 underline dark:text-brand-300">
        Back to the home page
      </a>
    </section>
  );
}
