import type { ReactNode } from "react";
import { isRouteErrorResponse } from "react-router";
import { errorCopy } from "~/content/errors";
import { SiteFooter } from "./site-footer";
import { SiteHeader } from "./site-header";

/** The first stop of the keyboard: straight to the page's main content. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only z-[60] rounded-md bg-white px-4 py-2 text-sm font-semibold focus:not-sr-only focus:fixed focus:top-2 focus:left-2 dark:bg-slate-900"
    >
      {errorCopy.skipToContent}
    </a>
  );
}

/** The site's frame: banner and header, the page as the main landmark, the footer. */
export function SiteFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <SkipLink />
      <SiteHeader />
      <main id="main" tabIndex={-1} className="outline-none">
        {children}
      </main>
      <SiteFooter />
    </>
  );
}

/** The title and message of an error a route threw (a 404, another status, or anything unexpected). */
export function errorText(error: unknown): { title: string; message: string } {
  if (!isRouteErrorResponse(error)) return errorCopy.unexpected;
  if (error.status === 404) return errorCopy.notFound;
  return {
    title: `${error.status} ${error.statusText || "Error"}`,
    message: typeof error.data === "string" && error.data ? error.data : errorCopy.unexpected.message,
  };
}

/** What a page says when it cannot be shown, with the way home. */
export function ErrorNotice({ title, message }: { title: string; message: string }) {
  return (
    <section className="mx-auto flex min-h-[50vh] max-w-2xl flex-col items-start justify-center gap-4 px-6 py-24">
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="text-slate-600 dark:text-slate-300">{message}</p>
      <a href="/" className="font-medium text-brand-700 underline dark:text-brand-300">
        {errorCopy.home}
      </a>
    </section>
  );
}
