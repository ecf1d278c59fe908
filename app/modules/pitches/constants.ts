/** Pitch form rules shared by the server schema and the form (kept free of zod, so the page stays light). */
export const PITCH_STAGES = ["Pre-Seed", "Seed", "Series A", "Series B", "Other"] as const;

export const PITCH_LIMITS = { name: 200, company: 200, deckUrl: 2000, message: 5000 } as const;

export const PITCH_MESSAGES = {
  name: "Name is required",
  email: "Invalid email address",
  company: "Company is required",
  stage: "Please choose a stage",
  deckUrl: "Invalid URL",
  message: "Message is required",
} as const;
