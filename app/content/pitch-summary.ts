import { oneLine } from "./mail-safe";
import { businessDays } from "./business-days";
import { firm } from "./firm";

/**
 * The daily pitch summary (issue 16): at 08:00 Zurich time, one mail to the
 * firm's inbox listing the unanswered pitches due today and those overdue.
 * Nothing is sent on a day with none.
 */

type Mail = { subject: string; text: string };
const lines = (...parts: string[]) => parts.join("\n");

/** A pitch as the summary lists it; `dueDay` is already formatted ('Nov 30, 2026'). */
export type SummaryPitch = {
  company: string;
  founder: string;
  email: string;
  /** The owner's name, or null while nobody owns it. */
  owner: string | null;
  dueDay: string;
  /** Overdue pitches: by how many business days (at least 1). */
  overdueBy?: number;
  url: string;
};

/** One section: the pitches listed, and how many there are in all (a long list is cut). */
export type SummarySection = { pitches: SummaryPitch[]; total: number };

const businessDayCount = (n: number) => (n === 1 ? "1 business day" : `${n} business days`);
const pitchCount = (n: number) => (n === 1 ? "1 pitch" : `${n} pitches`);

function entry(pitch: SummaryPitch): string[] {
  const late = pitch.overdueBy === undefined ? "" : `, overdue by ${businessDayCount(pitch.overdueBy)}`;
  return [
    // The founder's fields as typed, but each on its line: a company cannot add a line (a link) of its own.
    `- ${oneLine(pitch.company)}, from ${oneLine(pitch.founder)} <${oneLine(pitch.email)}>`,
    `  Due ${pitch.dueDay}${late}. Owner: ${pitch.owner ? oneLine(pitch.owner) : "nobody yet"}.`,
    `  ${pitch.url}`,
  ];
}

function section(title: string, part: SummarySection, moreUrl: string): string[] {
  if (part.total === 0) return [];
  const more = part.total - part.pitches.length;
  return [
    `${title} (${part.total}):`,
    "",
    ...part.pitches.flatMap((pitch) => [...entry(pitch), ""]),
    ...(more > 0 ? [`… and ${more} more: ${moreUrl}`, ""] : []),
  ];
}

export const pitchSummaryMail = (dueToday: SummarySection, overdue: SummarySection, appUrl: string): Mail => ({
  subject: `Pitches to answer: ${dueToday.total} due today, ${overdue.total} overdue`,
  text: lines(
    "Good morning,",
    "",
    `${pitchCount(dueToday.total + overdue.total)} still ${dueToday.total + overdue.total === 1 ? "waits" : "wait"} for an answer to the founder. ${firm.name} promises one within ${businessDays.answerWithin} business days (${businessDays.office.label} business days).`,
    "",
    ...section("Due today", dueToday, `${appUrl}/admin/pitches`),
    ...section("Overdue", overdue, `${appUrl}/admin/pitches?overdue=1`),
    `The pitch inbox: ${appUrl}/admin/pitches`,
    "",
    "--",
    "This summary goes to the firm's inbox every morning (Zurich time) on which pitches are due or overdue.",
  ),
});
