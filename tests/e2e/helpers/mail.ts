import { expect } from "@playwright/test";
import { readMailsTo, type SinkMail } from "./mail-files";

export type { SinkMail };

/**
 * The run's mail, as its SMTP server received it (tests/e2e/mail-sink.ts,
 * one file per recipient: ./mail-files.ts). Every spec reads mail through here.
 */

function runDir(): string {
  const dir = process.env.E2E_RUN_DIR;
  if (!dir) throw new Error("E2E_RUN_DIR is not set (run through playwright.config.ts)");
  return dir;
}

/** Every mail to this address so far whose subject matches (default: all), oldest first. */
export function mailsTo(address: string, subject: RegExp = /./): SinkMail[] {
  return readMailsTo(runDir(), address).filter((mail) => subject.test(mail.subject));
}

/** How many mails to this address with a matching subject have arrived so far. */
export function mailCountTo(address: string, subject: RegExp): number {
  return mailsTo(address, subject).length;
}

/**
 * The newest mail to this address whose subject matches (and whose text holds
 * `textIncludes`, e.g. a server's own links), waiting for it up to `timeout`.
 */
export async function latestMailTo(address: string, subject: RegExp, textIncludes = "", timeout = 15_000): Promise<SinkMail> {
  let found: SinkMail | undefined;
  await expect
    .poll(
      () => {
        found = mailsTo(address, subject)
          .filter((mail) => mail.text.includes(textIncludes))
          .at(-1);
        return found !== undefined;
      },
      { message: `an e-mail to ${address} matching ${subject}`, timeout },
    )
    .toBe(true);
  return found!;
}

/** Wait for mail number `count + 1` to this address with a matching subject (the ones before it are already known). */
export async function nextMailTo(address: string, subject: RegExp, count: number, timeout = 15_000): Promise<SinkMail> {
  await expect.poll(() => mailsTo(address, subject).length, { message: `mail #${count + 1} to ${address} matching ${subject}`, timeout }).toBeGreaterThan(count);
  return mailsTo(address, subject)[count]!;
}
