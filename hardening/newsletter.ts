/**
 * newsletter: the double opt-in (issue 16), tried from outside against the
 * production build with real mails.
 *
 * - Enumeration: POST /api/newsletter for a new, a pending and an unsubscribed
 *   address answers the same status, the same body (but the address) and the
 *   same headers (but date and request id); so does the no-JS form post (the
 *   redirect and its flash). Past the 3 confirmation mails a day the answer is
 *   still the same, and no fourth mail goes out. Only a confirmed address is
 *   SPEC's duplicate (409).
 * - Confirmation tokens: every single-character change, truncations,
 *   extensions, other spellings, another address's token mixed in, empty,
 *   huge and non-ASCII values, the token in another parameter: each answers
 *   400 (GET page and POST) and confirms nothing. GET of a good link changes
 *   nothing (mail scanners). A superseded link (a fresh one was sent) is 400.
 *   The good link's POST confirms; its replay is 400 and changes nothing.
 * - Unsubscribe tokens (from the admin's CSV): the same tampering and a
 *   signature under a guessed key, each 400 with no change; a browser's
 *   cross-site POST is 403; the mail provider's one-click POST (no cookie, no
 *   Origin) is 200 and writes one audit row; its replay is 200 with no second
 *   row. The token is bound to its purpose: on /unsubscribe/documents it is
 *   400 (the reverse is in the unit tests).
 */
import { createHmac } from "node:crypto";
import { formBody, jsonBody, startMailCatcher, startServer, Tally, unique, type HttpAnswer, type Section } from "./harness";
import { dbValue, Portal } from "./web-helpers";

const LOCAL_ADDRESS = "127.0.0.47";
const ONE_CLICK = "List-Unsubscribe=One-Click";
const CONFIRM_SUBJECT = /^Confirm your .* newsletter subscription$/;
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Variants of a token that must not be accepted (single-character changes and the usual suspects). */
function tampered(token: string, other: string): Array<{ label: string; token: string }> {
  const out: Array<{ label: string; token: string }> = [];
  for (let i = 0; i < token.length; i++) {
    const c = token[i]!;
    if (c === ".") continue;
    out.push({ label: `char ${i} changed`, token: token.slice(0, i) + ALPHABET[(ALPHABET.indexOf(c) + 7) % ALPHABET.length]! + token.slice(i + 1) });
  }
  const [id = "", sig = ""] = token.split(".");
  const [otherId = "", otherSig = ""] = other.split(".");
  out.push(
    { label: "last char dropped", token: token.slice(0, -1) },
    { label: "extra char", token: `${token}A` },
    { label: "padding added", token: `${token}=` },
    { label: "standard base64 spelling", token: token.replace(/-/g, "+").replace(/_/g, "/") },
    { label: "upper case", token: token.toUpperCase() },
    { label: "lower case", token: token.toLowerCase() },
    { label: "empty", token: "" },
    { label: "huge", token: "A".repeat(20_000) },
    { label: "non-ASCII", token: `${token}é` },
    { label: "doubled", token: `${token}${token}` },
    { label: "half of each", token: token.slice(0, 20) + other.slice(20) },
  );
  if (sig) {
    out.push(
      { label: "another id with this signature", token: `${otherId}.${sig}` },
      { label: "this id with another signature", token: `${id}.${otherSig}` },
      { label: "parts swapped", token: `${sig}.${id}` },
      { label: "two dots", token: `${id}.${sig}.${sig}` },
    );
  }
  // A random token may have nothing to change for a spelling (no '-' or '_', no letters of a case): skip those.
  return out.filter((variant) => variant.token !== token);
}

export const section: Section = {
  name: "newsletter",
  run: async (ctx) => {
    const t = new Tally();
    const mail = await startMailCatcher(ctx);
    const server = await startServer(ctx, { name: "newsletter", env: { SMTP_URL: mail.smtpUrl } });
    let requests = 0;
    let serverErrors = 0;
    try {
      const portal = await new Portal(server, {}, LOCAL_ADDRESS).init();
      const call = async (method: string, path: string, body?: { headers: Record<string, string>; body?: string }, cookie = "", headers: Record<string, string> = {}): Promise<HttpAnswer> => {
        requests += 1;
        const answer = await portal.call(method, path, body ?? { headers: {} }, cookie, headers);
        if (answer.status >= 500) serverErrors += 1;
        return answer;
      };
      const sameSite = { origin: server.url, "sec-fetch-site": "same-origin" };
      const row = (email: string) =>
        dbValue<string>(server, "select status || '|' || coalesce(confirm_token_hash, '') || '|' || coalesce(confirmed_at, '') || '|' || coalesce(unsubscribed_at, '') from newsletter_subscribers where email = ?", email);
      const status = (email: string) => row(email)?.split("|")[0];
      const confirmMails = (email: string) => mail.mails.filter((m) => m.envelopeTo.includes(email) && CONFIRM_SUBJECT.test(m.subject));
      const auditRows = (event: string, email: string) =>
        dbValue<number>(server, "select count(*) from audit_events where event = ? and target_label = ?", event, email) ?? 0;
      const subscribeApi = (email: string) => call("POST", "/api/newsletter", jsonBody({ email }));
      const subscribeForm = (email: string) => call("POST", "/newsletter", formBody({ email, formId: "newsletter-footer", redirectTo: "/team" }), "", sameSite);
      /** The token of the n-th confirmation mail to an address (waits for it). */
      const confirmToken = async (email: string, n: number) => {
        await mail.waitFor(() => confirmMails(email).length >= n, 30_000);
        const text = confirmMails(email)[n - 1]!.text;
        return /\/newsletter\/confirm\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? "";
      };
      const confirmAt = (token: string) => `/newsletter/confirm?token=${encodeURIComponent(token)}`;
      const confirmPost = (token: string) => call("POST", confirmAt(token), formBody({}), "", sameSite);
      const comparable = (answer: HttpAnswer, email: string) => ({
        status: answer.status,
        body: answer.text.split(email).join("<email>"),
        headers: Object.entries(answer.headers)
          .filter(([name]) => name !== "date" && name !== "x-request-id")
          .map(([name, value]) => `${name}: ${name === "set-cookie" ? "(set)" : String(value)}`)
          .sort(),
      });

      // ── Enumeration ──
      const pending = `pending-${unique()}@example.com`;
      const gone = `gone-${unique()}@example.com`;
      const member = `member-${unique()}@example.com`;
      await subscribeApi(pending);
      await subscribeApi(gone);
      await subscribeApi(member);
      const goneToken = await confirmToken(gone, 1);
      const memberToken = await confirmToken(member, 1);
      t.check("the confirmation POSTs of two addresses go on to the thank-you (303)", (await confirmPost(goneToken)).status === 303 && (await confirmPost(memberToken)).status === 303, `${status(gone)}, ${status(member)}`);
      const csv = await call("GET", "/admin/email-lists/newsletter.csv", undefined, portal.adminCookie);
      const linkOf = (email: string) => csv.text.split("\r\n").find((line) => line.startsWith(`${email},`))?.split(",").at(-1) ?? "";
      const goneLink = new URL(linkOf(gone) || "http://invalid/");
      const memberLink = new URL(linkOf(member) || "http://invalid/");
      t.check("the admin's CSV gives each confirmed subscriber an /unsubscribe/newsletter link", goneLink.pathname === "/unsubscribe/newsletter" && memberLink.pathname === "/unsubscribe/newsletter", csv.text.slice(0, 300));
      const provider = () => ({ headers: { "content-type": "application/x-www-form-urlencoded" }, body: ONE_CLICK });
      const unsubscribeAt = (token: string) => `/unsubscribe/newsletter?token=${encodeURIComponent(token)}`;
      const goneUnsub = goneLink.searchParams.get("token") ?? "";
      const memberUnsub = memberLink.searchParams.get("token") ?? "";
      t.check("an address unsubscribes with its link", (await call("POST", unsubscribeAt(goneUnsub), provider())).status === 200 && status(gone) === "unsubscribed", `${status(gone)}`);

      const fresh = `fresh-${unique()}@example.com`;
      const answers = {
        new: await subscribeApi(fresh),
        pending: await subscribeApi(pending),
        unsubscribed: await subscribeApi(gone),
      };
      const shapes = {
        new: comparable(answers.new, fresh),
        pending: comparable(answers.pending, pending),
        unsubscribed: comparable(answers.unsubscribed, gone),
      };
      t.check("API: a new address answers 202 { email, status: 'pending' }", answers.new.status === 202 && answers.new.text === JSON.stringify({ email: fresh, status: "pending" }), `${answers.new.status} ${answers.new.text}`);
      t.check("API: a pending address answers exactly as a new one (status, body, headers)", JSON.stringify(shapes.pending) === JSON.stringify(shapes.new), `${JSON.stringify(shapes.pending)} vs ${JSON.stringify(shapes.new)}`);
      t.check("API: an unsubscribed address answers exactly as a new one (status, body, headers)", JSON.stringify(shapes.unsubscribed) === JSON.stringify(shapes.new), `${JSON.stringify(shapes.unsubscribed)} vs ${JSON.stringify(shapes.new)}`);
      t.check("the unsubscribed address stays unsubscribed until the new link is confirmed", status(gone) === "unsubscribed", `${status(gone)}`);
      const duplicate = await subscribeApi(member);
      t.check("only a confirmed address is SPEC's duplicate (409)", duplicate.status === 409, `${duplicate.status} ${duplicate.text}`);

      const formFresh = `form-${unique()}@example.com`;
      const forms = {
        new: comparable(await subscribeForm(formFresh), formFresh),
        pending: comparable(await subscribeForm(pending), pending),
        unsubscribed: comparable(await subscribeForm(gone), gone),
      };
      t.check("form (no JS): new, pending and unsubscribed answer the same redirect", JSON.stringify(forms.pending) === JSON.stringify(forms.new) && JSON.stringify(forms.unsubscribed) === JSON.stringify(forms.new), `${JSON.stringify(forms)}`);

      // 3 mails a day: pending has had 3 now (API ×2, form ×1); a 4th subscribe answers the same and sends nothing.
      await mail.waitFor(() => confirmMails(pending).length >= 3, 30_000);
      const fourth = comparable(await subscribeApi(pending), pending);
      const fresh2 = `fresh2-${unique()}@example.com`;
      const reference = comparable(await subscribeApi(fresh2), fresh2);
      await mail.waitFor(() => confirmMails(fresh2).length >= 1, 30_000);
      t.check("past 3 mails a day the answer is still the same", JSON.stringify(fourth) === JSON.stringify(reference), `${JSON.stringify(fourth)} vs ${JSON.stringify(reference)}`);
      t.count("confirmation mails to one address in a day", confirmMails(pending).length, 3);

      // ── Confirmation tokens ──
      const good = await confirmToken(pending, 3);
      const superseded = await confirmToken(pending, 2);
      const other = await confirmToken(fresh, 1);
      const before = row(pending);
      const page = await call("GET", confirmAt(good));
      t.check("GET of a good confirmation link shows the page (200) and confirms nothing", page.status === 200 && row(pending) === before, `status ${page.status}`);
      let confirmNot400 = 0;
      const odd: string[] = [];
      const variants = [...tampered(good, other), { label: "superseded link", token: superseded }];
      for (const variant of variants) {
        for (const method of ["GET", "POST"] as const) {
          const answer = method === "GET" ? await call("GET", confirmAt(variant.token)) : await confirmPost(variant.token);
          const refused = answer.status === 400 || (variant.label === "huge" && (answer.status === 414 || answer.status === 431));
          if (!refused) {
            confirmNot400 += 1;
            odd.push(`${method} ${variant.label}: ${answer.status}`);
          }
        }
      }
      const moved = await call("POST", `/newsletter/confirm?t=${encodeURIComponent(good)}`, formBody({}), "", sameSite);
      if (moved.status !== 400) confirmNot400 += 1;
      t.info("tampered confirmation tokens tried (GET and POST each)", variants.length + 1);
      t.count("tampered confirmation tokens answered other than 400", confirmNot400, 0, odd.join("; "));
      t.check("after tampering the address is still pending, its link unchanged", row(pending) === before, `${row(pending)}`);
      t.count("confirmations recorded by tampering", auditRows("newsletter.confirmed", pending));
      const confirmed = await confirmPost(good);
      t.check("the good link's POST confirms (303 to the thank-you)", confirmed.status === 303 && status(pending) === "confirmed", `status ${confirmed.status}, ${status(pending)}`);
      const afterConfirm = row(pending);
      const replay = await confirmPost(good);
      const replayGet = await call("GET", confirmAt(good));
      t.check("a replay of the used link is 400 (POST and GET) and changes nothing", replay.status === 400 && replayGet.status === 400 && row(pending) === afterConfirm, `POST ${replay.status}, GET ${replayGet.status}`);
      t.count("confirmation audit rows after the replay", auditRows("newsletter.confirmed", pending), 1);

      // ── Unsubscribe tokens ──
      const memberBefore = row(member);
      let unsubNot400 = 0;
      const oddUnsub: string[] = [];
      const unsubVariants = tampered(memberUnsub, goneUnsub);
      for (const variant of unsubVariants) {
        for (const method of ["GET", "POST"] as const) {
          const answer = await call(method, unsubscribeAt(variant.token), method === "POST" ? provider() : undefined);
          const refused = answer.status === 400 || (variant.label === "huge" && (answer.status === 414 || answer.status === 431));
          if (!refused) {
            unsubNot400 += 1;
            oddUnsub.push(`${method} ${variant.label}: ${answer.status}`);
          }
        }
      }
      t.info("tampered unsubscribe tokens tried (GET and POST each)", unsubVariants.length);
      t.count("tampered unsubscribe tokens answered other than 400", unsubNot400, 0, oddUnsub.join("; "));
      t.check("after tampering the member is still confirmed", row(member) === memberBefore && status(member) === "confirmed", `${row(member)}`);
      const hmacGuess = createHmac("sha256", "guess").update("x").digest("base64url");
      const guessed = await call("POST", unsubscribeAt(`${memberUnsub.split(".")[0]}.${hmacGuess}`), provider());
      t.check("a signature made with a guessed key is 400", guessed.status === 400, `status ${guessed.status}`);
      const wrongBody = await call("POST", unsubscribeAt(memberUnsub), { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=Yes" });
      t.check("a POST without List-Unsubscribe=One-Click is 400 and changes nothing", wrongBody.status === 400 && status(member) === "confirmed", `status ${wrongBody.status}`);
      const crossSite = await call("POST", unsubscribeAt(memberUnsub), provider(), "", { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
      t.check("a browser's cross-site POST is refused (403) and changes nothing", crossSite.status === 403 && status(member) === "confirmed", `status ${crossSite.status}`);
      const getPage = await call("GET", unsubscribeAt(memberUnsub));
      t.check("GET of the unsubscribe link shows the page (200) and changes nothing", getPage.status === 200 && status(member) === "confirmed", `status ${getPage.status}`);
      const oneClick = await call("POST", unsubscribeAt(memberUnsub), provider());
      t.check("the one-click POST (no cookie, no Origin) answers 200 and unsubscribes", oneClick.status === 200 && status(member) === "unsubscribed", `status ${oneClick.status}, ${status(member)}`);
      t.count("unsubscribe audit rows", auditRows("newsletter.unsubscribed", member), 1);
      const afterUnsub = row(member);
      const again = await call("POST", unsubscribeAt(memberUnsub), provider());
      t.check("a replay answers 200 and changes nothing", again.status === 200 && row(member) === afterUnsub, `status ${again.status}`);
      t.count("unsubscribe audit rows after the replay", auditRows("newsletter.unsubscribed", member), 1);
      const back = await subscribeApi(member);
      t.check("the unsubscribed member subscribing again gets the pending answer and stays unsubscribed", back.status === 202 && status(member) === "unsubscribed", `${back.status}, ${status(member)}`);

      // ── The tokens open nothing else ──
      const asCookie = await call("GET", "/api/auth/user", undefined, `lr_session=${good}; __Host-lr_session=${good}`);
      const asDocumentUnsub = await call("POST", `/unsubscribe/documents?token=${encodeURIComponent(memberUnsub)}`, provider());
      t.check("a confirmation token as a session cookie is not a session (401)", asCookie.status === 401, `status ${asCookie.status}`);
      t.check("a newsletter unsubscribe token does nothing on /unsubscribe/documents (400)", asDocumentUnsub.status === 400, `status ${asDocumentUnsub.status}`);

      t.info("requests", requests);
      t.count("5xx answers", serverErrors);
    } finally {
      await server.stop();
      await mail.stop();
    }
    return t.result();
  },
};
