/** Pitch form rules shared by the server schema and the form (zod-free; their messages are in content/validation.ts). */
export const PITCH_STAGES = ["Pre-Seed", "Seed", "Series A", "Series B", "Other"] as const;

export const PITCH_LIMITS = { name: 200, company: 200, deckUrl: 2000, message: 5000 } as const;

