/** Pitch form rules shared by the server schema and the form (zod-free; their messages are in content/validation.ts). */
export const PITCH_STAGES = ["Pre-Seed", "Seed", "Series A", "Series B", "Other"] as const;

export const PITCH_LIMITS = { name: 200, company: 200, deckUrl: 2000, message: 5000 } as const;


/** An uploaded deck: one PDF of at most 25 MB, in the multipart field `deck`. */
export const PITCH_DECK_FIELD = "deck";
export const PITCH_DECK_MAX_BYTES = 25 * 1024 * 1024;

/**
 * The form's spam traps (decision 026): a field people leave empty (hidden
 * from them) and a signed render time. Field names are plain so bots fill them.
 */
export const PITCH_HONEYPOT_FIELD = "website";
export const PITCH_STAMP_FIELD = "formStamp";

/** Where an admin opens a pitch's uploaded deck (inline PDF; each opening is recorded). */
export const pitchDeckPath = (pitchId: string) => `/admin/pitches/${encodeURIComponent(pitchId)}/deck`;
