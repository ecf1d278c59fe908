/**
 * /portfolio: the sector filters and the 24 portfolio companies (SPEC.md §2, §3).
 * Every company here is fictional; websites use the reserved `.example` domain.
 */

/** The sectors a company can belong to; a filter matches one of them exactly. */
export const SECTORS = [
  "Advanced Materials",
  "AI",
  "Biotech",
  "Blockchain",
  "Neurotechnology",
  "Quantum and Data Solutions",
  "Robotics",
  "Space",
] as const;
export type Sector = (typeof SECTORS)[number];

export function isSector(value: unknown): value is Sector {
  return typeof value === "string" && (SECTORS as readonly string[]).includes(value);
}

/** A portfolio company (SPEC.md §3, "Portfolio company (static content)"). */
export type PortfolioCompany = {
  name: string;
  sector: Sector;
  description: string;
  /** e.g. 'Series A · 40 employees' */
  metric: string;
  website: string;
  /** A path under /logos/ in public/; without it the card shows the initials. */
  logo?: string;
};

export const portfolioContent = {
  title: "Our Portfolio",
  intro:
    "A selection of the founders we back: teams turning breakthrough science and engineering into products across eight deeptech sectors.",
  description:
    "Portfolio companies backed by our deeptech funds in advanced materials, AI, biotech, blockchain, neurotechnology, quantum and data solutions, robotics and space.",
  filtersLabel: "Filter by sector",
  companiesTitle: "Companies",
  allLabel: "All",
  /** "Showing 3 of 24 companies" */
  countText: (shown: number, total: number) =>
    shown === total
      ? `Showing all ${total} companies`
      : `Showing ${shown} of ${total} ${total === 1 ? "company" : "companies"}`,
  empty: "No companies in this sector yet.",
  newTab: "(opens in a new tab)",
} as const;

/** The filter buttons, in order: All, then every sector. */
export const portfolioFilters = [portfolioContent.allLabel, ...SECTORS] as const;

export const portfolioCompanies: readonly PortfolioCompany[] = [
  // Advanced Materials
  {
    name: "Vantorra Composites",
    sector: "Advanced Materials",
    description: "Recyclable carbon-fibre composites for aircraft interiors and light electric vehicles.",
    metric: "Series A · 36 employees",
    website: "https://vantorra.example",
  },
  {
    name: "Lumacrete",
    sector: "Advanced Materials",
    description: "A self-healing concrete additive that seals micro-cracks and extends the life of bridges and tunnels.",
    metric: "Seed · 13 employees",
    website: "https://lumacrete.example",
  },
  {
    name: "Quilmere Aerogels",
    sector: "Advanced Materials",
    description: "Low-cost silica aerogels for building insulation and fire barriers in battery packs.",
    metric: "Pre-Seed · 7 employees",
    website: "https://quilmere.example",
  },
  // AI
  {
    name: "Tessary AI",
    sector: "AI",
    description: "Foundation models that propose and rank candidate molecules for industrial chemistry labs.",
    metric: "Series A · 42 employees",
    website: "https://tessary.example",
  },
  {
    name: "Northvane Vision",
    sector: "AI",
    description: "Computer vision that inspects welds and castings on the production line in real time.",
    metric: "Seed · 17 employees",
    website: "https://northvane.example",
  },
  {
    name: "Parlance Forge",
    sector: "AI",
    description: "Verifiable language models for regulated industries, with every answer traced back to its sources.",
    metric: "Pre-Seed · 7 employees",
    website: "https://parlanceforge.example",
  },
  // Biotech
  {
    name: "Helixmoor Bio",
    sector: "Biotech",
    description: "Programmable enzymes that turn agricultural waste into specialty chemicals.",
    metric: "Series A · 35 employees",
    website: "https://helixmoor.example",
  },
  {
    name: "Cellvista Diagnostics",
    sector: "Biotech",
    description: "A point-of-care blood test that detects sepsis in under twenty minutes.",
    metric: "Series B · 64 employees",
    website: "https://cellvista.example",
  },
  {
    name: "Verdalis Therapeutics",
    sector: "Biotech",
    description: "RNA therapies for rare metabolic diseases, designed with large-scale in-silico screening.",
    metric: "Seed · 12 employees",
    website: "https://verdalis.example",
  },
  // Blockchain
  {
    name: "Ledgerloom",
    sector: "Blockchain",
    description: "Tamper-evident supply-chain records for pharmaceuticals and critical minerals.",
    metric: "Seed · 15 employees",
    website: "https://ledgerloom.example",
  },
  {
    name: "Settlewise Protocol",
    sector: "Blockchain",
    description: "Instant, compliant settlement rails for tokenised securities and funds.",
    metric: "Series A · 29 employees",
    website: "https://settlewise.example",
  },
  {
    name: "Cipherleaf Labs",
    sector: "Blockchain",
    description: "Zero-knowledge proofs that let companies demonstrate compliance without revealing their data.",
    metric: "Pre-Seed · 5 employees",
    website: "https://cipherleaf.example",
  },
  // Neurotechnology
  {
    name: "Axonwell",
    sector: "Neurotechnology",
    description: "Non-invasive neural sensing headbands for long-term epilepsy monitoring at home.",
    metric: "Seed · 18 employees",
    website: "https://axonwell.example",
  },
  {
    name: "Mindrail Neuro",
    sector: "Neurotechnology",
    description: "Closed-loop neuromodulation for treatment-resistant depression.",
    metric: "Series A · 31 employees",
    website: "https://mindrail.example",
  },
  {
    name: "Dendrite Nine",
    sector: "Neurotechnology",
    description: "Thin-film electrode arrays for the next generation of brain-computer interfaces.",
    metric: "Pre-Seed · 9 employees",
    website: "https://dendritenine.example",
  },
  // Quantum and Data Solutions
  {
    name: "Quantafold",
    sector: "Quantum and Data Solutions",
    description: "Quantum simulation software for designing better battery materials and catalysts.",
    metric: "Seed · 16 employees",
    website: "https://quantafold.example",
  },
  {
    name: "Coldtrap Qubits",
    sector: "Quantum and Data Solutions",
    description: "Cryogenic control electronics that drastically reduce the wiring inside quantum computers.",
    metric: "Series A · 27 employees",
    website: "https://coldtrap.example",
  },
  {
    name: "Meridata Fabric",
    sector: "Quantum and Data Solutions",
    description: "Privacy-preserving data infrastructure that lets hospitals train models without moving patient records.",
    metric: "Series A · 44 employees",
    website: "https://meridata.example",
  },
  // Robotics
  {
    name: "Gantrywise Robotics",
    sector: "Robotics",
    description: "Autonomous robots that inspect and repair wind-turbine blades without taking turbines offline for long.",
    metric: "Series A · 39 employees",
    website: "https://gantrywise.example",
  },
  {
    name: "Pickwell Dynamics",
    sector: "Robotics",
    description: "Dexterous grippers and control software for mixed-item warehouse picking.",
    metric: "Seed · 21 employees",
    website: "https://pickwell.example",
  },
  {
    name: "Burrow Autonomy",
    sector: "Robotics",
    description: "Tunnelling robots that lay fibre and utility lines underground without open trenches.",
    metric: "Pre-Seed · 8 employees",
    website: "https://burrowautonomy.example",
  },
  // Space
  {
    name: "Orbitrove",
    sector: "Space",
    description: "In-orbit refuelling and life-extension services for geostationary satellites.",
    metric: "Series A · 47 employees",
    website: "https://orbitrove.example",
  },
  {
    name: "Skyloam Imaging",
    sector: "Space",
    description: "Hyperspectral satellite data for monitoring crop health and soil carbon.",
    metric: "Seed · 19 employees",
    website: "https://skyloam.example",
  },
  {
    name: "Apsis Thermal",
    sector: "Space",
    description: "Deployable radiators and thermal control systems for small satellites.",
    metric: "Pre-Seed · 6 employees",
    website: "https://apsisthermal.example",
  },
];

/** The two-letter fallback for a missing logo: first letters of the first two words, or the first two letters of a one-word name. */
export function companyInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const initials = words.length >= 2 ? `${words[0]![0]}${words[1]![0]}` : (words[0] ?? "").slice(0, 2);
  return initials.toUpperCase();
}
