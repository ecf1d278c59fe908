/** The public pages listed in /sitemap.xml. */
export const sitemapPaths = [
  "/",
  "/investment-focus",
  "/portfolio",
  "/deeptech-fund",
  "/fund-i",
  "/fund-ii",
  "/team",
  "/process",
  "/contact",
  "/privacy-policy",
  "/terms-of-service",
] as const;
