/** Every public page of SPEC.md §2 (the site frame's pages; no portal, no document page). */
export const publicPages = [
  "/",
  "/investment-focus",
  "/portfolio",
  "/deeptech-fund",
  "/fund-i",
  "/fund-ii",
  "/team",
  "/process",
  "/contact",
  "/login",
  "/privacy-policy",
  "/terms-of-service",
] as const;

/** The pages listed in /sitemap.xml: the public pages but the placeholder client login. */
export const sitemapPaths = publicPages.filter((path) => path !== "/login");
