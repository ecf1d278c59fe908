/** Header links, in the order of SPEC.md §2. */
export const headerLinks = [
  { to: "/", label: "Home" },
  { to: "/investment-focus", label: "Focus" },
  { to: "/portfolio", label: "Portfolio" },
  { to: "/deeptech-fund", label: "Fund" },
  { to: "/team", label: "Team" },
  { to: "/process", label: "Process" },
  { to: "/contact", label: "Contact" },
  // Highlighted on every investor portal page, not only the sign-in.
  { to: "/lp/login", label: "Investor Portal", activePrefix: "/lp/" },
] as const;

/** The footer's Quick Links grid. */
export const quickLinks = [
  { to: "/investment-focus", label: "Focus" },
  { to: "/portfolio", label: "Portfolio" },
  { to: "/deeptech-fund", label: "Fund" },
  { to: "/team", label: "Team" },
  { to: "/process", label: "Process" },
  { to: "/contact", label: "Contact" },
] as const;

export const legalLinks = [
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/terms-of-service", label: "Terms of Service" },
] as const;

export const bannerText = {
  message: "Deeptech Fund II is now open for subscriptions.",
  cta: "Learn more",
  /** The banner's landmark name (the workspaces pin it above their header). */
  label: "Announcement",
};
