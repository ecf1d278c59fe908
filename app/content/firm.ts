/** The firm's identity: the one place for its name, e-mail, offices and profiles. */
export const firm = {
  /** "The product name" of SPEC.md. */
  name: "Lumen Ridge Ventures",
  shortName: "Lumen Ridge",
  initials: "LR",
  tagline: "Compound Innovation Into Value",
  description:
    "A deeptech venture firm backing founders who turn breakthrough science and engineering into companies that last.",
  email: "hello@lumenridge.example",
  offices: ["Zurich", "Cape Town", "London"] as const,
  social: {
    label: "Lumen Ridge Ventures on LinkedIn",
    network: "LinkedIn",
    url: "https://www.linkedin.com/company/lumen-ridge-ventures-example",
  },
  copyrightYear: 2025,
  legalLastUpdated: "October 6, 2025",
} as const;

export const officesLine = firm.offices.join(" - ");
