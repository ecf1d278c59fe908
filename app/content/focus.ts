/** /investment-focus: the eight sectors, 'Who We Back' and 'What We Look For' (SPEC.md §2, §9). */

/** Icon keys; the route maps each to a lucide-react icon. */
export type FocusIcon =
  | "materials"
  | "ai"
  | "biotech"
  | "blockchain"
  | "neuro"
  | "quantum"
  | "robotics"
  | "space"
  | "check"
  | "stage"
  | "geography"
  | "traction";

export const focusContent = {
  title: "Our Investment Focus",
  intro:
    "We invest where deep science meets large markets: technologies that take years to build, are hard to copy, and can change how whole industries work.",
  description:
    "The eight deeptech sectors we invest in, from advanced materials to space, and the founders we back: Pre-Seed to Series B, $50K - $2M initial checks, North America and Europe.",
  sectorsTitle: "Sectors",
  sectors: [
    {
      icon: "materials",
      title: "Advanced Materials",
      text: "Engineered materials, coatings and composites that make products lighter, stronger, cleaner or cheaper to manufacture at scale.",
    },
    {
      icon: "ai",
      title: "Artificial Intelligence",
      text: "Foundational and applied AI with defensible data, models and workflows, from scientific discovery to industrial operations.",
    },
    {
      icon: "biotech",
      title: "Biotechnology",
      text: "Platforms in synthetic biology, diagnostics and therapeutics that turn biological insight into products for health, food and industry.",
    },
    {
      icon: "blockchain",
      title: "Blockchain Technology",
      text: "Infrastructure for verifiable data, digital assets and secure settlement that real businesses and institutions can build on.",
    },
    {
      icon: "neuro",
      title: "Neurotechnology",
      text: "Brain-computer interfaces, neural sensing and neuromodulation that help diagnose, treat and understand the nervous system.",
    },
    {
      icon: "quantum",
      title: "Quantum and Data Solutions",
      text: "Quantum hardware, software and sensing, and the data infrastructure that lets organisations compute, secure and share at new scales.",
    },
    {
      icon: "robotics",
      title: "Robotics",
      text: "Autonomous machines, perception and control systems that take on dangerous, repetitive or precise work in the physical world.",
    },
    {
      icon: "space",
      title: "Space",
      text: "Launch, in-orbit services, satellite data and the components that make access to space cheaper and more useful on Earth.",
    },
  ],
  criteriaTitle: "Who We Back",
  criteriaIntro: "Our criteria are simple, and we apply them consistently.",
  criteria: [
    {
      icon: "check",
      label: "Check Size",
      value: "$50K - $2M",
      note: "Initial investment with reserves for follow-on funding",
    },
    {
      icon: "stage",
      label: "Stage",
      value: "Pre-Seed to Series B",
      note: "We lead or co-lead early rounds and keep supporting the best companies as they grow.",
    },
    {
      icon: "geography",
      label: "Geography",
      value: "North America and Europe",
      note: "Primary US and Europe, global potential",
    },
    {
      icon: "traction",
      label: "Traction",
      value: "Prototype/MVP or beyond",
      note: "A working prototype or minimum viable product that shows the science works outside the lab.",
    },
  ],
  lookForTitle: "What We Look For",
  lookFor: [
    "Founders with deep technical expertise and the drive to turn it into a product customers pay for.",
    "A genuine technical breakthrough, protected by intellectual property, know-how or hard-won data.",
    "A large market where the technology creates a step change, not an incremental improvement.",
    "A credible path from prototype to production, with clear milestones for each round of funding.",
    "Early proof of demand: pilots, letters of intent, design partners or paying customers.",
    "Capital efficiency and a team that can attract talent, partners and follow-on investors.",
  ],
  cta: {
    text: "Building something that fits?",
    link: "Submit your pitch",
  },
} as const satisfies {
  sectors: readonly { icon: FocusIcon; title: string; text: string }[];
  criteria: readonly { icon: FocusIcon; label: string; value: string; note: string }[];
  [key: string]: unknown;
};
