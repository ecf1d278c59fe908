import { firm } from "./firm";

/** /deeptech-fund, /fund-i and /fund-ii (SPEC.md §2, §9). */

export const FUND_KEYS = ["fund-i", "fund-ii"] as const;
export type FundKey = (typeof FUND_KEYS)[number];

export type FundStatus = "Closed" | "Active";

/** Icon keys for the Fund Structure items; the route maps each to a lucide-react icon. */
export type StructureIcon = "life" | "lps" | "strategy" | "gp" | "value";

type FundLink = { to: string; label: string };

export type Fund = {
  key: FundKey;
  name: string;
  status: FundStatus;
  /** ISO 4217 code of the fund's currency; with vintageYear, seeded into the funds table (migration 0017, decision 038). */
  currency: string;
  /** The year of the fund's first close (fictional). */
  vintageYear: number;
  path: `/${FundKey}`;
  /** One or two sentences for the overview card on /deeptech-fund. */
  summary: string;
  highlights: readonly { value: string; label: string }[];
  /** The card's and the detail page's call to action. */
  cta: FundLink;
  /** A second way on, e.g. Fund I's document sign-up. */
  secondaryCta?: FundLink;
  /** The card's link to this fund's detail page. */
  detailLink: string;
  /** Detail page: meta description and overview paragraphs. */
  description: string;
  overview: readonly string[];
  terms: readonly { label: string; value: string }[];
  note?: string;
};

const cities = `${firm.offices.slice(0, -1).join(", ")} and ${firm.offices[firm.offices.length - 1]}`;

/** The terms shared by both funds (SPEC.md §9). */
const strategyTerms = [
  { label: "Fund life", value: "10 years with a 2-year extension option" },
  { label: "Portfolio", value: "Diversified portfolio of 50+ companies" },
  { label: "Initial check", value: "$50K to $2M" },
  { label: "Reserve ratio", value: "2.5x" },
  { label: "Stages", value: "Pre-Seed to Series B" },
] as const;

const fundI: Fund = {
  key: "fund-i",
  name: "Deeptech Fund I",
  status: "Closed",
  currency: "USD",
  vintageYear: 2019,
  path: "/fund-i",
  summary:
    "Our first fund backed 67 companies in 7 sectors, in North America and Europe. It is fully invested and closed to new investors.",
  highlights: [
    { value: "67", label: "companies backed" },
    { value: "7", label: "sectors" },
    { value: "North America and Europe", label: "geography" },
  ],
  cta: { to: "/portfolio", label: "View Portfolio" },
  secondaryCta: { to: "/fund-i/signup", label: "Access Fund I Documents" },
  detailLink: "About Deeptech Fund I",
  description:
    "Deeptech Fund I is closed: it backed 67 companies in 7 sectors, in North America and Europe, from Pre-Seed to Series B.",
  overview: [
    "Deeptech Fund I is our first fund. It backed 67 companies in 7 sectors, in North America and Europe, investing from Pre-Seed to Series B with initial checks of $50K to $2M and reserves of 2.5x for follow-on rounds.",
    "The fund is closed and not publicly offered. Its capital is committed, and our team now concentrates on supporting its companies as they scale: recruiting, follow-on fundraising, customer introductions and, in time, exits.",
    "Many of the companies it backed appear in our portfolio, where you can see the breadth of the science behind them.",
  ],
  terms: [
    { label: "Status", value: "Closed; not publicly offered" },
    { label: "Companies backed", value: "67" },
    { label: "Sectors", value: "7" },
    { label: "Geography", value: "North America and Europe" },
    ...strategyTerms,
  ],
};

const fundII: Fund = {
  key: "fund-ii",
  name: "Deeptech Fund II",
  status: "Active",
  currency: "USD",
  vintageYear: 2024,
  path: "/fund-ii",
  summary:
    "Our active fund continues the Fund I strategy with a diversified portfolio of 50+ companies. It is open for subscriptions from accredited and qualified investors.",
  highlights: [
    { value: "50+", label: "target companies" },
    { value: "$50K - $2M", label: "initial checks" },
    { value: "2.5x", label: "reserve ratio" },
  ],
  cta: { to: "/fund-ii/signup", label: "Request Access to Fund II Documents" },
  detailLink: "About Deeptech Fund II",
  description:
    "Deeptech Fund II is our active fund, open for subscriptions from accredited and qualified investors: 50+ companies, $50K to $2M initial checks, Pre-Seed to Series B.",
  overview: [
    "Deeptech Fund II is our active fund and is now open for subscriptions from accredited and qualified investors. It builds on the lessons of Fund I and backs founders turning breakthrough science and engineering into companies, from Pre-Seed to Series B.",
    "The fund will build a diversified portfolio of 50+ companies across our focus sectors, primarily in the US and Europe. Initial checks range from $50K to $2M, and a 2.5x reserve ratio lets us support our strongest companies through their follow-on rounds.",
    `Investors in Fund II gain exposure to early-stage deeptech alongside a team that sources, diligences and supports companies from ${cities}. The fund's documents, including its terms and executive summary, are available to verified accredited and qualified investors on request.`,
  ],
  terms: [{ label: "Status", value: "Active; open for subscriptions" }, ...strategyTerms],
  note: "For informational purposes only; not an offer or solicitation.",
};

export const funds: Record<FundKey, Fund> = { "fund-i": fundI, "fund-ii": fundII };

export const fundsContent = {
  title: "Deeptech Funds",
  intro:
    "Our funds give investors access to early-stage deeptech: a diversified portfolio of companies built on breakthrough science and engineering.",
  description:
    "Deeptech Fund I (closed) and Deeptech Fund II (active): fund structure, investment strategy, GP commitment and our co-investment partners.",
  fundsTitle: "Our Funds",
  structure: {
    title: "Fund Structure",
    items: [
      {
        icon: "life",
        title: "Fund Life",
        text: "10 years with a 2-year extension option",
      },
      {
        icon: "lps",
        title: "LP Base",
        text: "Entrepreneurs and operators, family offices, foundations and institutional investors from Switzerland, the United Kingdom, South Africa, continental Europe and North America, all of them accredited or qualified investors.",
      },
      {
        icon: "strategy",
        title: "Investment Strategy",
        text: "A diversified portfolio built for the power law of early-stage deeptech:",
        points: [
          "Diversified portfolio of 50+ companies",
          "Initial check: $50K to $2M",
          "Reserve ratio: 2.5x",
          "Stages: Pre-Seed to Series B",
        ],
      },
      {
        icon: "gp",
        title: "GP Commitment",
        text: "The general partners invest their own capital in every fund on the same terms as our limited partners, so our interests stay aligned from the first investment to the last distribution.",
      },
      {
        icon: "value",
        title: "Value Beyond Capital",
        text: `Founders get hands-on help from partners and scientific advisors: technical diligence, recruiting, introductions to customers and industrial partners, preparation for follow-on rounds, and a network that spans ${cities}.`,
      },
    ],
  },
  partners: {
    title: "Co-Investment Partners",
    intro: "We regularly invest alongside specialist funds that share our conviction in deep science.",
    items: [
      {
        name: "Aarberg Deep Science Partners",
        text: "Seed and Series A investor in European research spin-offs.",
        url: "https://aarberg-partners.example",
      },
      {
        name: "Table Bay Frontier Fund",
        text: "Backs frontier technology founders across Africa and their expansion abroad.",
        url: "https://tablebay-frontier.example",
      },
      {
        name: "Thameside Growth Capital",
        text: "Growth-stage investor leading Series B and later rounds in hardware companies.",
        url: "https://thameside-growth.example",
      },
    ],
  },
  newTab: "(opens in a new tab)",
  detail: {
    back: "Back to Deeptech Funds",
    overviewTitle: "Overview",
    termsTitle: "Key Terms",
  },
} as const;
