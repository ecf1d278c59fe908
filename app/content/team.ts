import { firm } from "./firm";

/** /team: 'Our Team'. The list is empty for now (SPEC.md §2); add members here. */

export type TeamMember = {
  name: string;
  role: string;
  office: (typeof firm.offices)[number];
  bio: string;
  /** A path under public/, e.g. /team/jane-doe.jpg; without it the card shows initials. */
  photo?: string;
  /** An external profile (opens in a new tab). */
  profileUrl?: string;
};

const members: readonly TeamMember[] = [];

export const teamContent = {
  title: "Our Team",
  intro: `Scientists, engineers, operators and investors, working together from ${firm.offices.slice(0, -1).join(", ")} and ${firm.offices[firm.offices.length - 1]} to help founders build enduring deeptech companies.`,
  description: `Meet the partners and investment team of ${firm.name}.`,
  members,
  empty: {
    title: "Team profiles are coming soon.",
    text: "We are putting together our team profiles. In the meantime, we would be glad to hear from you.",
    link: "Contact us",
  },
  newTab: "(opens in a new tab)",
} as const;
