/**
 * First paint needs only the HTML and the stylesheet.
 *
 * React Router's <Scripts/> emits a <link rel="modulepreload"> for every
 * module the page hydrates with (about 25 on a public page), and React hoists
 * them into <head>. The browser then fetches all of them while it waits for
 * the stylesheet, so on a slow connection the scripts share the bandwidth with
 * the CSS, and Lighthouse counts every script that arrives before first paint
 * as part of first paint (score 95–96). Giving them fetchpriority="low" puts
 * them behind the CSS in the browser but not in Lighthouse's model (they still
 * arrive before paint); putting the stylesheet first or inlining it changes
 * nothing there. Measurements: docs/decisions/019-bench-methods.md.
 *
 * So the page's HTML carries no module preloads: the module script at the end
 * of <body> imports the route modules, and the browser fetches their imports
 * as it finds them (three levels deep on a public page) after first paint.
 * Hydration starts about two round trips later on a first visit; the modules
 * are immutable assets, so later visits load them from the cache. Every page
 * works before hydration (forms post, menus are <details>).
 *
 * While it hydrates, React inserts the links <Scripts/> renders into <head>
 * (hoisted links are matched by href, and a missing one is created, not a
 * mismatch); the modules are in the module map by then, so nothing is fetched
 * again, and <Scripts/> renders nothing once hydrated.
 */
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;

export function withoutModulePreloads(html: string): string {
  const headEnd = html.indexOf("</head>");
  if (headEnd === -1) return html;
  return html.slice(0, headEnd).replace(MODULE_PRELOAD, "") + html.slice(headEnd);
}
