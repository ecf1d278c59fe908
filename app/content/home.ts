/** Home page copy (SPEC.md §2, "Home"). */
export const homeContent = {
  badge: "Backing Breakthrough Technologies",
  headline: "Investing in the Future of DeepTech",
  subtitle:
    "We partner with scientists and engineers at the earliest stages, turning breakthrough scientific and engineering innovation into companies that reshape industries.",
  cta: "View Portfolio",
  description:
    "Lumen Ridge Ventures is a deeptech venture firm in Zurich, Cape Town and London backing breakthrough science and engineering from Pre-Seed to Series B.",
} as const;
