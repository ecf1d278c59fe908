import fs from "node:fs";
import path from "node:path";

/**
 * Where the run's SMTP sink keeps mail (tests/e2e/mail-sink.ts writes, the
 * specs read through ./mail.ts): one file per recipient,
 * `$E2E_RUN_DIR/mail/to/<address>.jsonl`, a JSON line per mail in the order
 * received. Reading one address's mail reads that file alone, so a poll costs
 * the same whether the run has sent ten mails or ten thousand. No Playwright
 * import here: the sink process loads this file too.
 */
export type SinkMail = {
  /** Order of arrival in the whole run. */
  seq: number;
  envelopeTo: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
};

/** The file of one recipient's mail (the address lower case, URI-encoded). */
export function recipientFile(runDir: string, address: string): string {
  return path.join(runDir, "mail", "to", `${encodeURIComponent(address.trim().toLowerCase())}.jsonl`);
}

/** Every mail to this address so far, oldest first. */
export function readMailsTo(runDir: string, address: string): SinkMail[] {
  let text: string;
  try {
    text = fs.readFileSync(recipientFile(runDir, address), "utf8");
  } catch {
    return [];
  }
  // Only whole lines: the sink may be half-way through appending the last one.
  const end = text.lastIndexOf("\n");
  if (end === -1) return [];
  return text
    .slice(0, end)
    .split("\n")
    .map((line) => JSON.parse(line) as SinkMail);
}
