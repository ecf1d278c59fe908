/**
 * spam-trap: the pitch form's spam defence (decision 026), tried from outside
 * against the production build with its real settings (minimum fill time 3 s).
 *
 * - Bypass attempts, each from a client address of its own: no stamp, an
 *   empty or garbage stamp, a stamp whose time or signature was changed, one
 *   signed with another key, one from the future and a replayed one older
 *   than 24 hours (both signed with the server's own key: the strongest
 *   forger), a post right after the page was fetched (too fast), and the
 *   honeypot filled with a URL, a space or a tab. With and without a deck.
 * - Each is trapped: it answers as an accepted post does — the same status,
 *   Location and cookie names without JavaScript (and the page it leads to
 *   shows the same success), the same bytes with JavaScript (/process.data) —
 *   and nothing is stored (no pitch row, no mail queued, no deck on disk).
 * - The log counts every trapped post with its reason, and never holds the
 *   visitor's text.
 * - An honest post (a real stamp, sent after the minimum fill time) is kept
 *   and mailed.
 */
import fs from "node:fs";
import path from "node:path";
import { formStampWith } from "../app/modules/pitches/form-stamp.server";
import { MIME, samplePdf } from "../tests/helpers/sample-files";
import { formBody, multipart, request, SESSION_SECRET, sameOrigin, sleep, startServer, Tally, unique, type AppServer, type HttpAnswer, type Section } from "./harness";
import { dbValue } from "./web-helpers";

const TRAP_LOG = "pitch: spam trap";
/** A little over the server's default minimum fill time (PITCH_MIN_FILL_SECONDS=3). */
const HONEST_WAIT_MS = 3_300;

type Mode = "form" | "form + deck" | "enhanced";
type Attempt = { label: string; reason: string; fields: (real: string) => Record<string, string | null> };

let addressCounter = 0;
/** A client address of its own for each post (the pitch rate limit is per address). */
const nextAddress = () => {
  addressCounter += 1;
  return `127.0.${60 + Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
};

/** The stamp a fresh /process page carries. */
async function pageStamp(server: AppServer, localAddress: string): Promise<string> {
  const page = await request(server.url, "GET", "/process", { localAddress });
  const match = /name="formStamp" value="([^"]+)"/.exec(page.text);
  return match?.[1] ?? "";
}

function pitchFields(email: string, marker: string): Record<string, string> {
  return {
    name: `Spam Founder ${marker}`,
    email,
    company: `Spam Trap Co ${marker}`,
    stage: "Seed",
    deckUrl: "",
    message: `Visitor text ${marker} that must never be logged.`,
    website: "",
  };
}

async function post(server: AppServer, mode: Mode, fields: Record<string, string | null>, localAddress: string): Promise<HttpAnswer> {
  const kept = Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== null));
  const headers = sameOrigin(server);
  if (mode === "form + deck") {
    const body = multipart([
      ...Object.entries(kept).map(([name, value]) => ({ name, value })),
      { name: "deck", value: samplePdf(`deck ${kept.company ?? ""}`), filename: "deck.pdf", contentType: MIME.pdf },
    ]);
    return request(server.url, "POST", "/process", { headers: { ...headers, ...body.headers }, body: body.body, localAddress });
  }
  const body = formBody(mode === "enhanced" ? { ...kept, _enhanced: "1" } : kept);
  // With JavaScript the form posts through React Router's data request.
  const target = mode === "enhanced" ? "/process.data" : "/process";
  return request(server.url, "POST", target, { headers: { ...headers, ...body.headers }, body: body.body, localAddress });
}

/** What a client can compare of an answer: status, Location, cookie names and attributes (values are per answer), and the body. */
function shape(answer: HttpAnswer, mode: Mode): string {
  const cookies = ([] as string[])
    .concat(answer.headers["set-cookie"] ?? [])
    .map((cookie) => cookie.replace(/^([^=]+)=[^;]*/, "$1=…"))
    .sort();
  return JSON.stringify({
    status: answer.status,
    location: answer.headers.location ?? null,
    cookies,
    type: answer.headers["content-type"] ?? null,
    // Without JavaScript the body is a redirect's (empty); with it, the action's data, byte for byte but for the
    // toast's id, which answerForm draws afresh for every answer (so a remounted form never shows a toast twice).
    body: mode === "enhanced" ? answer.text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<toast id>") : answer.body.length,
  });
}

/** The page a redirect leads to, with its flash cookie: what the visitor then reads. */
async function landing(server: AppServer, answer: HttpAnswer, localAddress: string): Promise<{ success: boolean; toast: boolean }> {
  const cookie = ([] as string[]).concat(answer.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const location = answer.headers.location ?? "/";
  const page = await request(server.url, "GET", location.replace(/#.*$/, ""), { headers: { cookie }, localAddress });
  return { success: page.text.includes("Thank You for Submitting!"), toast: page.text.includes("Your pitch has been submitted successfully!") };
}

export const section: Section = {
  name: "spam-trap",
  run: async (ctx) => {
    const t = new Tally();
    const server = await startServer(ctx, { name: "spam-trap" });
    let serverErrors = 0;
    const count = (answer: HttpAnswer) => {
      if (answer.status >= 500) serverErrors += 1;
      return answer;
    };
    const stored = (email: string) => dbValue<number>(server, "select count(*) from pitch_submissions where email = ?", email) ?? 0;
    const mailed = (email: string) => dbValue<number>(server, "select count(*) from email_outbox where \"to\" = ? or text like ?", email, `%${email}%`) ?? 0;
    const deckDir = path.join(server.storageDir, "pitch-decks");
    const decksOnDisk = () => (fs.existsSync(deckDir) ? fs.readdirSync(deckDir).length : 0);
    const incomingDir = path.join(server.storageDir, "incoming");
    const incomingFiles = () => (fs.existsSync(incomingDir) ? fs.readdirSync(incomingDir).length : 0);

    try {
      // The honest answer in each mode: a person who took their time.
      ctx.progress("spam-trap: honest posts (waiting out the minimum fill time)");
      const accepted = new Map<Mode, string>();
      const modes: Mode[] = ["form", "form + deck", "enhanced"];
      const honestStamps = await Promise.all(modes.map(async () => {
        const address = nextAddress();
        return { address, stamp: await pageStamp(server, address) };
      }));
      t.check("/process carries a signed stamp", honestStamps.every((h) => /^\d+\.[A-Za-z0-9_-]{43}$/.test(h.stamp)), honestStamps.map((h) => h.stamp).join(", "));
      await sleep(HONEST_WAIT_MS);
      for (const [i, mode] of modes.entries()) {
        const { address, stamp } = honestStamps[i]!;
        const email = `honest-${unique()}@spam-trap.example`;
        const answer = count(await post(server, mode, { ...pitchFields(email, unique()), formStamp: stamp }, address));
        accepted.set(mode, shape(answer, mode));
        t.check(`honest post (${mode}) is stored`, stored(email) === 1, `status ${answer.status}: ${answer.text.slice(0, 200)}`);
        t.check(`honest post (${mode}) queues the firm's mail and the acknowledgement`, mailed(email) >= 2, `${mailed(email)} mail(s)`);
        if (mode !== "enhanced") {
          const seen = await landing(server, answer, address);
          t.check(`honest post (${mode}) leads to the success view and toast`, seen.success && seen.toast, JSON.stringify(seen));
        }
      }
      const decksAfterHonest = decksOnDisk();
      t.check("the honest post's deck is on disk", decksAfterHonest === 1, `${decksAfterHonest} deck file(s)`);

      const old = Date.now();
      const ATTEMPTS: Attempt[] = [
        { label: "no stamp", reason: "stamp_missing", fields: () => ({ formStamp: null }) },
        { label: "empty stamp", reason: "stamp_missing", fields: () => ({ formStamp: "" }) },
        { label: "garbage stamp", reason: "stamp_invalid", fields: () => ({ formStamp: "hello" }) },
        { label: "huge stamp", reason: "stamp_invalid", fields: () => ({ formStamp: "9".repeat(10_000) }) },
        { label: "time moved back (signature kept)", reason: "stamp_invalid", fields: (real) => ({ formStamp: real.replace(/^\d+/, (ms) => String(Number(ms) - 600_000)) }) },
        { label: "signature changed", reason: "stamp_invalid", fields: (real) => ({ formStamp: real.slice(0, -2) + (real.endsWith("AA") ? "BA" : "AA") }) },
        { label: "signed with another key", reason: "stamp_invalid", fields: () => ({ formStamp: formStampWith("not-the-servers-secret-0123456789abcdef", old - 600_000) }) },
        { label: "stamp from the future", reason: "stamp_future", fields: () => ({ formStamp: formStampWith(SESSION_SECRET, Date.now() + 3_600_000) }) },
        { label: "replayed stamp older than 24 h", reason: "stamp_expired", fields: () => ({ formStamp: formStampWith(SESSION_SECRET, Date.now() - 25 * 3_600_000) }) },
        { label: "too fast (right after the page)", reason: "too_fast", fields: (real) => ({ formStamp: real }) },
        { label: "honeypot filled", reason: "honeypot", fields: () => ({ website: "https://cheap.example" }) },
        { label: "honeypot of a space", reason: "honeypot", fields: () => ({ website: " " }) },
        { label: "honeypot of a tab", reason: "honeypot", fields: () => ({ website: "\t" }) },
      ];

      ctx.progress(`spam-trap: ${ATTEMPTS.length * modes.length} bypass attempts`);
      const markers: string[] = [];
      let trappedPosts = 0;
      const linesBefore = server.logLines().length;
      for (const attempt of ATTEMPTS) {
        for (const mode of modes) {
          const address = nextAddress();
          // A real stamp fetched just now: posted at once it is too fast; the honeypot attempts keep it (only the honeypot trips).
          const real = await pageStamp(server, address);
          const base: Record<string, string> = attempt.reason === "honeypot" ? { formStamp: formStampWith(SESSION_SECRET, Date.now() - 60_000) } : {};
          const marker = unique();
          markers.push(marker);
          const email = `bot-${marker}@spam-trap.example`;
          const answer = count(await post(server, mode, { ...pitchFields(email, marker), ...base, ...attempt.fields(real) }, address));
          trappedPosts += 1;
          const label = `${attempt.label} (${mode})`;
          t.check(`${label}: answers as an accepted post`, shape(answer, mode) === accepted.get(mode), `${shape(answer, mode).slice(0, 300)} vs ${accepted.get(mode)?.slice(0, 300)}`);
          if (mode !== "enhanced") {
            const seen = await landing(server, answer, address);
            t.check(`${label}: leads to the same success view and toast`, seen.success && seen.toast, JSON.stringify(seen));
          }
          t.check(`${label}: nothing stored`, stored(email) === 0, `${stored(email)} row(s)`);
          t.check(`${label}: nothing sent`, mailed(email) === 0, `${mailed(email)} mail(s)`);
        }
      }
      t.count("deck files kept from trapped posts", decksOnDisk() - decksAfterHonest, 0);
      t.count("partial uploads left in incoming/", incomingFiles(), 0);

      // The log: one line per trapped post with its reason, and no visitor text.
      await sleep(200);
      const lines = server.logLines().slice(linesBefore);
      const trapLines = lines.filter((line) => line.includes(`"msg":"${TRAP_LOG}"`));
      t.count("trapped posts counted in the log", trapLines.length, trappedPosts);
      for (const reason of new Set(ATTEMPTS.map((a) => a.reason))) {
        const expected = ATTEMPTS.filter((a) => a.reason === reason).length * modes.length;
        t.count(`log lines with reason ${reason}`, trapLines.filter((line) => line.includes(`"reason":"${reason}"`)).length, expected);
      }
      t.count("log lines holding a visitor's text", lines.filter((line) => markers.some((m) => line.includes(m))).length, 0);
      t.count("5xx answers", serverErrors, 0);
      t.count("server crashes", server.unexpectedExits(), 0);
    } finally {
      await server.stop();
    }
    return t.result();
  },
};
