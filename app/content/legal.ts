import { firm } from "./firm";

/**
 * The shape of a legal document (Privacy Policy, Terms of Service), rendered
 * by one generic component: headings, paragraphs, lists and tables.
 */

/** Inline text: a plain string, or a run of strings and links. */
export type LegalInline = string | { text: string; href: string };
export type LegalText = string | readonly LegalInline[];

export type LegalBlock =
  | { type: "p"; text: LegalText }
  | { type: "ul"; items: readonly LegalText[] }
  | { type: "table"; caption: string; head: readonly string[]; rows: readonly (readonly string[])[] };

export type LegalSubsection = { title: string; blocks: readonly LegalBlock[] };

export type LegalSection = {
  /** The anchor for the table of contents. */
  id: string;
  title: string;
  blocks: readonly LegalBlock[];
  subsections?: readonly LegalSubsection[];
};

export type LegalDocument = {
  title: string;
  /** Meta description. */
  description: string;
  path: string;
  lastUpdated: string;
  intro: readonly LegalBlock[];
  sections: readonly LegalSection[];
};

export const legalCopy = {
  lastUpdatedLabel: "Last updated:",
  contentsTitle: "Contents",
} as const;

/** "Zurich, Cape Town and London" */
export const officeCities = `${firm.offices.slice(0, -1).join(", ")} and ${firm.offices[firm.offices.length - 1]}`;

/** The firm's e-mail as a mailto link inside legal text. */
export const emailLink = { text: firm.email, href: `mailto:${firm.email}` } as const;
