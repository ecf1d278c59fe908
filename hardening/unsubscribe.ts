/**
 * unsubscribe: the RFC 8058 one-click unsubscribe of new-document e-mails,
 * tried from outside against the production build with real mails.
 *
 * - The link comes from a real mail (the SMTP catcher): an investor's
 *   new-document mail carries List-Unsubscribe <…?token=…> and
 *   List-Unsubscribe-Post: List-Unsubscribe=One-Click.
 * - Tampering: every single-character change of the token, truncations,
 *   extensions, another investor's id with this signature and the reverse,
 *   the parts swapped, padding and other base64 spellings, empty, huge and
 *   non-ASCII values, the token moved to another parameter: each answers 400
 *   (GET page and one-click POST) and changes no preference.
 * - A mail provider's POST (no cookie, no Origin, no Sec-Fetch-Site) works;
 *   a browser's cross-site POST (Origin of another site) is refused 403.
 * - The GET page changes nothing (link scanners and prefetchers are safe).
 * - Replay: the same one-click POST again answers 200 and writes no second
 *   audit row; after the investor turns mails back on, the old link still
 *   works (a mail may sit in an inbox for months) and only ever sets 'none'
 *   for its own investor.
 * - The token opens nothing else: as a session cookie, a reset token or a
 *   fund token it is refused like any guess.
 */
import { formBody, jsonBody, multipart, startMailCatcher, startServer, Tally, unique, type HttpAnswer, type Section } from "./harness";
import { MIME, samplePdf } from "../tests/helpers/sample-files";
import { dbValue, Portal } from "./web-helpers";

const LOCAL_ADDRESS = "127.0.0.43";
const ONE_CLICK = "List-Unsubscribe=One-Click";

/** Every variant of a token that must not be accepted. */
function tamperedTokens(token: string, otherToken: string): Array<{ label: string; token: string }> {
  const out: Array<{ label: string; token: string }> = [];
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (let i = 0; i < token.length; i++) {
    const c = token[i]!;
    if (c === ".") continue;
    const replacement = alphabet[(alphabet.indexOf(c) + 7) % alphabet.length]!;
    out.push({ label: `char ${i} changed`, token: token.slice(0, i) + replacement + token.slice(i + 1) });
  }
  const [id = "", sig = ""] = token.split(".");
  const [otherId = "", otherSig = ""] = otherToken.split(".");
  out.push(
    { label: "last char dropped", token: token.slice(0, -1) },
    { label: "signature dropped", token: id },
    { label: "id dropped", token: `.${sig}` },
    { label: "extra char", token: `${token}A` },
    { label: "padding added", token: `${token}=` },
    { label: "another investor's id with this signature", token: `${otherId}.${sig}` },
    { label: "this id with another investor's signature", token: `${id}.${otherSig}` },
    { label: "parts swapped", token: `${sig}.${id}` },
    { label: "standard base64 spelling", token: token.replace(/-/g, "+").replace(/_/g, "/") },
    { label: "upper case", token: token.toUpperCase() },
    { label: "empty", token: "" },
    { label: "huge", token: "A".repeat(20_000) },
    { label: "non-ASCII", token: `${token}é` },
    { label: "two dots", token: `${id}.${sig}.${sig}` },
  );
  // A variant that changes nothing is the token itself, not a tampered one: a token without
  // '-' or '_' (about 1 in 18) has no other base64 spelling. Skip it, as the newsletter section does.
  return out.filter((variant) => variant.token !== token);
}

export const section: Section = {
  name: "unsubscribe",
  run: async (ctx) => {
    const t = new Tally();
    const mail = await startMailCatcher(ctx);
    const server = await startServer(ctx, { name: "unsubscribe", env: { SMTP_URL: mail.smtpUrl, DOCUMENT_MAIL_DEFAULT: "each" } });
    let requests = 0;
    let serverErrors = 0;
    try {
      const portal = await new Portal(server, {}, LOCAL_ADDRESS).init();
      const call = async (method: string, path: string, body?: { headers: Record<string, string>; body?: string | Buffer }, cookie = "", headers: Record<string, string> = {}): Promise<HttpAnswer> => {
        requests += 1;
        const answer = await portal.call(method, path, body ?? { headers: {} }, cookie, headers);
        if (answer.status >= 500) serverErrors += 1;
        return answer;
      };
      const a = await portal.investor();
      const b = await portal.investor();
      const preference = (userId: string) => dbValue<string>(server, "select document_mail from lp_users where id = ?", userId);
      const auditRows = (userId: string) => dbValue<number>(server, "select count(*) from audit_events where event = 'user.document_mail_changed' and target_id = ?", userId) ?? 0;

      // A document for everyone: both investors get a new-document mail with the headers.
      const title = `Unsubscribe test ${unique()}`;
      const upload = await call(
        "POST",
        "/api/documents",
        multipart([
          { name: "title", value: title },
          { name: "category", value: "reports" },
          { name: "file", value: samplePdf(title), filename: "report.pdf", contentType: MIME.pdf },
        ]),
        portal.adminCookie,
      );
      t.check("the publish is accepted", upload.status === 201, `status ${upload.status}`);
      const linkOf = async (email: string) => {
        const caught = await mail.waitFor((m) => m.to.includes(email) && m.text.includes(title), 30_000);
        const header = caught.headers["list-unsubscribe"] ?? "";
        t.check(`${email === a.email ? "A" : "B"}'s mail has List-Unsubscribe-Post: ${ONE_CLICK}`, caught.headers["list-unsubscribe-post"] === ONE_CLICK, caught.headers["list-unsubscribe-post"] ?? "missing");
        const url = new URL(header.replace(/^<|>$/g, ""));
        return { path: `${url.pathname}`, token: url.searchParams.get("token") ?? "" };
      };
      const linkA = await linkOf(a.email);
      const linkB = await linkOf(b.email);
      t.check("the link is /unsubscribe/documents?token=…", linkA.path === "/unsubscribe/documents" && linkA.token.length > 20, `${linkA.path} (token ${linkA.token.length} chars)`);
      const at = (token: string) => `${linkA.path}?token=${encodeURIComponent(token)}`;
      const provider = () => ({ headers: { "content-type": "application/x-www-form-urlencoded" }, body: ONE_CLICK });

      // GET never changes anything.
      const page = await call("GET", at(linkA.token));
      t.check("GET with a valid token shows the page (200) and changes nothing", page.status === 200 && preference(a.id) === "each", `status ${page.status}, preference ${preference(a.id)}`);

      // Tampering.
      let tamperedAccepted = 0;
      let tamperedNot400 = 0;
      const odd: string[] = [];
      const variants = tamperedTokens(linkA.token, linkB.token);
      for (const variant of variants) {
        for (const method of ["GET", "POST"] as const) {
          const answer = await call(method, at(variant.token), method === "POST" ? provider() : undefined);
          // A token too long for a request line is refused before the app (414/431): as good as a 400.
          const refused = answer.status === 400 || (variant.label === "huge" && (answer.status === 414 || answer.status === 431));
          if (!refused) {
            tamperedNot400 += 1;
            odd.push(`${method} ${variant.label}: ${answer.status}`);
          }
          if (answer.status === 200 && method === "POST") tamperedAccepted += 1;
        }
      }
      const moved = await call("POST", `${linkA.path}?t=${encodeURIComponent(linkA.token)}`, provider());
      if (moved.status !== 400) tamperedNot400 += 1;
      t.info("tampered tokens tried (GET and POST each)", variants.length + 1);
      t.count("tampered tokens answered other than 400", tamperedNot400, 0, odd.join("; "));
      t.count("tampered tokens that unsubscribed", tamperedAccepted);
      t.check("after tampering both still get each new document", preference(a.id) === "each" && preference(b.id) === "each", `A ${preference(a.id)}, B ${preference(b.id)}`);
      t.count("audit rows written by tampering", auditRows(a.id) + auditRows(b.id));

      // Other bodies and a browser's cross-site post.
      const wrongBody = await call("POST", at(linkA.token), { headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=Yes" });
      t.check("a POST without List-Unsubscribe=One-Click is 400 and changes nothing", wrongBody.status === 400 && preference(a.id) === "each", `status ${wrongBody.status}`);
      const crossSite = await call("POST", at(linkA.token), provider(), "", { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
      t.check("a browser's cross-site POST is refused (403) and changes nothing", crossSite.status === 403 && preference(a.id) === "each", `status ${crossSite.status}`);

      // The provider's one-click POST: no cookie, no Origin, no Sec-Fetch-Site.
      const oneClick = await call("POST", at(linkA.token), provider());
      t.check("the one-click POST (no cookie, no Origin) answers 200 and sets 'none'", oneClick.status === 200 && preference(a.id) === "none", `status ${oneClick.status}, preference ${preference(a.id)}`);
      t.check("it changed only A (B still gets each)", preference(b.id) === "each", `B ${preference(b.id)}`);
      t.count("audit rows for A's unsubscribe", auditRows(a.id), 1);
      const replay = await call("POST", at(linkA.token), provider());
      t.check("a replay answers 200", replay.status === 200, `status ${replay.status}`);
      t.count("audit rows after the replay", auditRows(a.id), 1);

      // A turns mails back on; the old link still only ever sets 'none' for A.
      const back = await call("POST", "/lp/account", formBody({ intent: "document-mail", documentMail: "each" }), a.cookie, { origin: server.url });
      t.check("A turns new-document e-mails back on from the account page", back.status < 400 && preference(a.id) === "each", `status ${back.status}, preference ${preference(a.id)}`);
      const again = await call("POST", at(linkA.token), provider());
      t.check("the old link still works for A (200, 'none')", again.status === 200 && preference(a.id) === "none", `status ${again.status}, preference ${preference(a.id)}`);

      // The token opens nothing else.
      const asCookie = await call("GET", "/api/auth/user", undefined, `lr_session=${linkA.token}; __Host-lr_session=${linkA.token}`);
      const asFund = await call("POST", "/api/fund-access/validate-token", jsonBody({ token: linkA.token }));
      await call("POST", "/lp/reset-password", formBody({ token: linkA.token, password: "a-new-password-123", confirmPassword: "a-new-password-123" }), "", { origin: server.url });
      const passwordKept = await portal.signIn(a.email).then(
        () => true,
        () => false,
      );
      t.check("as a session cookie it is not a session (401)", asCookie.status === 401, `status ${asCookie.status}`);
      const fundValid = asFund.status === 200 && (JSON.parse(asFund.text) as { valid?: unknown }).valid === true;
      t.check("as a fund token it is not valid", !fundValid && asFund.status < 500, `status ${asFund.status} ${asFund.text.slice(0, 120)}`);
      t.check("as a password-reset token it changes no password (A still signs in)", passwordKept, "A's password no longer works");

      t.info("requests", requests);
      t.count("5xx answers", serverErrors);
    } finally {
      await server.stop();
      await mail.stop();
    }
    return t.result();
  },
};
