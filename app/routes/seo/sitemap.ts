import { sitemapPaths } from "~/content/sitemap";
import { getEnv } from "~/modules/config/env.server";

export function loader() {
  const base = getEnv().APP_URL;
  const urls = sitemapPaths.map((path) => `  <url><loc>${base}${path}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
