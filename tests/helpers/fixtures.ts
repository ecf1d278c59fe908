/** A complete, valid pitch as a founder would send it. */
export function validPitch(overrides: Record<string, string> = {}) {
  return {
    name: "Ada Lovelace",
    email: "ada@analytical.example",
    company: "Analytical Engines",
    stage: "Seed",
    deckUrl: "https://analytical.example/deck.pdf",
    message: "We build general-purpose computing machines.",
    ...overrides,
  };
}
