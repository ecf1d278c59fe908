/** /process: mission, the five steps with their timeframes (SPEC.md §9), and the pitch form copy. */
export const processContent = {
  title: "Our Process",
  intro:
    "We keep our process short and transparent, so founders can spend their time building rather than fundraising.",
  mission: {
    title: "Our Mission",
    text:
      "We back scientists and engineers who turn hard technical breakthroughs into enduring companies. We invest early, stay close, and compound our founders' progress with capital, expertise and a network that spans Zurich, Cape Town and London.",
  },
  stepsTitle: "Investment Process",
  steps: [
    {
      title: "Initial Review",
      timeframe: "1-2 weeks",
      text: "We read every pitch, assess the technology, the team and the market, and tell you where we stand.",
    },
    {
      title: "Deep Dive",
      timeframe: "2-3 weeks",
      text: "Technical and commercial diligence with our scientific advisors, customers and your team.",
    },
    {
      title: "Partner Meeting",
      timeframe: "1 week",
      text: "You present to the full partnership; we discuss the opportunity openly and decide quickly.",
    },
    {
      title: "Term Sheet",
      timeframe: "1-2 weeks",
      text: "Clear, founder-friendly terms, negotiated in good faith and closed without surprises.",
    },
    {
      title: "Partnership",
      timeframe: "Ongoing",
      text: "Hands-on support on hiring, follow-on funding, partnerships and go-to-market, for the long run.",
    },
  ],
  commitment:
    "We respond to every pitch within 5 business days, and if we are interested, we will schedule a partner call within 2 weeks.",
  pitch: {
    title: "Submit Your Pitch",
    intro: "Tell us about your company. Fields marked * are required.",
    submit: "Submit Pitch",
    submitting: "Submitting...",
    successTitle: "Thank You for Submitting!",
    successText: "We've received your pitch and will get back to you soon.",
    again: "Submit Another Pitch",
    deckLabel: "Pitch deck (PDF, optional, up to 25 MB)",
    /** The spam trap's label: read only by people whose screen shows the hidden field anyway. */
    honeypotLabel: "Leave this field empty (it catches spam bots)",
  },
} as const;

/** The toasts of a pitch submission (SPEC.md §8). */
export const pitchToasts = {
  success: { title: "Success", description: "Your pitch has been submitted successfully!" },
  failure: { title: "Error", description: "Failed to submit pitch. Please try again." },
} as const;
