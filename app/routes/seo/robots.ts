import { getEnv } from "~/modules/config/env.server";

/** Keep the portals and document pages out of search engines. */
export function loader() {
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /lp/",
    "Disallow: /admin/",
    "Disallow: /api/",
    "Disallow: /fund-i/signup",
    "Disallow: /fund-i/documents",
    "Disallow: /fund-ii/signup",
    "Disallow: /fund-ii/documents",
    "Disallow: /login",
    "",
    `Sitemap: ${getEnv().APP_URL}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
