import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import { useEffect } from "react";
import type { Route } from "./+types/root";
import "./app.css";
import { ErrorNotice, errorText } from "~/components/layout/page-frame";
import { Toaster } from "~/components/ui/toaster";
import type { RootData } from "~/components/ui/use-form-flash";
import { firm } from "~/content/firm";
import { getEnv } from "~/modules/config/env.server";
import { readFlash } from "~/modules/toast/flash.server";
import { themeFromCookieHeader, type Theme } from "~/modules/theme/theme";

export async function loader({ request }: Route.LoaderArgs) {
  const theme = themeFromCookieHeader(request.headers.get("Cookie"));
  const { flash, setCookie } = await readFlash(request);
  return data(
    { theme, toast: flash.toast, formFlash: flash.form, appUrl: getEnv().APP_URL } satisfies RootData,
    setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined,
  );
}

/**
 * Before first paint: apply the stored theme (the theme cookie, which every
 * toggle writes, else localStorage `theme`, else the system preference), so
 * there is no flash of the wrong theme.
 */
const themeScript = `(function(){try{var d=document.documentElement,s=localStorage.getItem("theme"),m=document.cookie.match(/(?:^|; )theme=(light|dark)(?:;|$)/),t=(m&&m[1])||s||"system";if(t!=="system")localStorage.setItem("theme",t);var dark=t==="dark"||(t!=="light"&&matchMedia("(prefers-color-scheme: dark)").matches);d.classList.toggle("dark",dark);d.classList.toggle("light",!dark);}catch(e){}})();`;

function themeClass(theme: Theme | undefined) {
  return theme === "dark" ? "dark" : theme === "light" ? "light" : undefined;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <html lang="en" className={themeClass(root?.theme)} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen font-sans">
        {children}
        <Toaster serverToast={root?.toast ?? null} />
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  // Once React has hydrated the page (its forms are enhanced from here on), <html data-hydrated> says so:
  // the browser tests wait for it before they act on an enhanced page.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

/** Nothing of the site could be loaded (the root itself failed): the message alone, without the frame. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const text = errorText(error);
  return (
    <main id="main">
      <title>{`${text.title} | ${firm.name}`}</title>
      <ErrorNotice {...text} />
    </main>
  );
}
