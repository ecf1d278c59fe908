/**
 * csrf: every state-changing route (each admin dashboard intent and each
 * account page intent on its own, and the two-factor code step) is sent the
 * ways another site can make a browser send it, with a live admin session
 * cookie, and must get the pipeline's 403 with nothing changed in the
 * database or storage. Then the legitimate ways in (a same-origin browser, a
 * browser whose Origin is the Host, a client that sends neither header) must
 * still work, with their effect checked for the common operations.
 *
 * The PDFs that publishing makes in the background (the records' notices
 * and statements, issue 25) are awaited before the comparison: their writes
 * are not the requests'. The statements' mutations (the P&L import's JSON
 * route with and without commit=1, publishing, the statements page's import,
 * publish, restate and watermark forms, the history import's upload and
 * confirm) are in the sweep like every other route, with their own check of
 * what they would have changed, and two of them with their effect checked
 * among the legitimate requests (a P&L import, the watermark setting).
 *
 * The mailed links' POSTs (the RFC 8058 one-click unsubscribes of
 * new-document mails and of the newsletter, the newsletter's confirmation)
 * are in the sweep like every other route, and that is the right
 * expectation: server/app.ts has no exception for them. RFC 8058's POST comes
 * from the mail provider's server with no cookie and no Origin (nor
 * Sec-Fetch-Site), which the rule admits as it admits curl; a browser's
 * cross-site POST (foreign Origin, Sec-Fetch-Site: cross-site or same-site,
 * Origin: null) is refused with the 403 as anywhere else. So the exception is
 * only the general one for a client that names no site, and it is narrow: the
 * token in the address is the only authority (signed per investor or
 * subscriber; it can only switch that one list off, or confirm that one
 * address), never a session. The effect checks below post the one-click body
 * with no Origin and no cookie, as a provider does, and see it take effect.
 *
 * Last, a flood: 5,000 cross-site posts with a 7 KB Origin and a 1 KB path
 * each, then a graceful stop (SIGTERM writes the counts still in memory). The
 * audit trail must have grown by at most 2 rows a minute for that address and
 * 200 KB in all, and the rows' counts must add up to every refusal.
 *
 * The admin (two-factor on, as the portal requires) signs in once; the
 * sign-ins repeated per kind of client are an investor's (a password alone),
 * and the admin's own form sign-in must go on to the code step.
 */
import { formBody, jsonBody, listFiles, startServer, Tally, type HttpAnswer, type Section } from "./harness";
import {
  accountTargets,
  callBody,
  changedTables,
  dbFingerprint,
  dbRows,
  dbValue,
  EVIL_ORIGIN,
  headerValue,
  isActionOriginRefusal,
  isCrossSiteRefusal,
  mutationTargets,
  PASSWORD,
  pdfJobsSettled,
  PNL_HEADER,
  Portal,
  send,
  sessionPair,
  setCookies,
  STATEMENT_QUARTERS,
  unique,
  type Body,
  type Target,
} from "./web-helpers";

/** Client addresses (local source addresses): setup, the cross-site sweep, the positives. Each has its own rate limits. */
const SETUP_IP = "127.0.0.2";
const SWEEP_IP = "127.0.0.3";
const EFFECT_IP = "127.0.0.4";
const ROUTES_IP = "127.0.0.5";
/** The flood of refusals comes from an address of its own. */
const FLOOD_IP = "127.0.0.6";
/** 5,000 cross-site posts, each with a 7 KB Origin and a 1 KB path: under node's 16 KB header limit, so they reach the check. */
const FLOOD_POSTS = 5_000;
const FLOOD_ORIGIN_BYTES = 7 * 1024;
const FLOOD_PATH_BYTES = 1024;
const FLOOD_WORKERS = 16;
/** What the flood may add to the audit trail in all. */
const FLOOD_BYTES_BUDGET = 200 * 1024;
/** The stored bytes of an audit_events row (its text columns). */
const ROW_BYTES =
  "length(event) + length(coalesce(ip, '')) + length(coalesce(user_agent, '')) + length(coalesce(request_id, '')) + length(details)" +
  " + length(coalesce(actor_email, '')) + length(coalesce(target_type, '')) + length(coalesce(target_id, '')) + length(coalesce(target_label, ''))";

/** How many clock minutes (UTC) a span of time touches. */
const minutesTouched = (from: number, to: number) => Math.floor(to / 60_000) - Math.floor(from / 60_000) + 1;

type Variant = { name: string; headers: Record<string, string>; body?: (target: Target, original: Body) => Body };

/** The fields of a body as urlencoded text (what a cross-site <form> can send). */
function asUrlencoded(target: Target, original: Body): Body {
  const type = original.headers["content-type"] ?? "";
  if (type.startsWith("application/json")) {
    const fields = JSON.parse(String(original.body)) as Record<string, unknown>;
    return formBody(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])));
  }
  if (type.startsWith("application/x-www-form-urlencoded")) return original;
  if (target.kind === "multipart") return formBody({ title: "Cross-site", category: "reports", fundId: "fund-ii" });
  return formBody({ confirm: "1" });
}

export const section: Section = {
  name: "csrf",
  run: async (ctx) => {
    const t = new Tally();
    const started = Date.now();
    const server = await startServer(ctx, { name: "csrf" });
    try {
      const appUrl = server.env.APP_URL!;
      const hostOrigin = new URL(server.url).origin; // http://127.0.0.1:port, the Host the requests carry
      const setup = await new Portal(server, {}, SETUP_IP).init();
      let admin = setup.adminCookie;
      // Signs in again and again below: an investor (an admin could only once per 30 s code step).
      const signer = await setup.investor();

      // Targets for the cross-site sweep, and fresh ones per legitimate variant (below).
      const pending = await setup.register();
      const ids = {
        adminEmail: setup.adminEmail,
        signInEmail: signer.email,
        userId: pending.id,
        documentId: await setup.uploadDocument(),
        fundDocumentId: await setup.uploadFundDocument("fund-ii"),
        revokeRequestId: await setup.fundRequest("fund-ii"),
        resendRequestId: await setup.fundRequest("fund-ii"),
        pitchId: await setup.pitch(),
        batchId: await setup.bulkBatch(),
        documentMailToken: setup.documentMailToken(signer.id),
        newsletterUnsubscribeToken: (await setup.subscriber()).unsubscribeToken,
        // No mail catcher here: a made-up confirmation token (the page answers 400; the sweep only needs the route).
        // Entities, commitments, drafts to publish and delete, a published call to pay (issue 24).
        capital: await setup.capital(signer),
      };
      const targets = [...mutationTargets(ids), ...accountTargets()];
      ctx.progress(`setup done (${((Date.now() - started) / 1000).toFixed(1)} s)`);

      // ── cross-site: every route × every variant must be refused ──────────
      const variants: Variant[] = [
        { name: "foreign Origin", headers: { origin: EVIL_ORIGIN } },
        // Origin = APP_URL too: only the Sec-Fetch-Site rule can refuse these.
        { name: "Sec-Fetch-Site: cross-site", headers: { "sec-fetch-site": "cross-site", origin: appUrl } },
        { name: "Sec-Fetch-Site: same-site", headers: { "sec-fetch-site": "same-site", origin: appUrl } },
        {
          name: "foreign Origin + text/plain body",
          headers: { origin: EVIL_ORIGIN },
          body: (_t, original) => ({ headers: { "content-type": "text/plain" }, body: original.body ?? "" }),
        },
        { name: "foreign Origin + urlencoded body", headers: { origin: EVIL_ORIGIN }, body: asUrlencoded },
        { name: "Origin: null", headers: { origin: "null" } },
      ];

      // The PDFs of the records' published quarter and entries are made in the background (documents, files, an audit row
      // each job): done before the comparison, so that what changes is the requests' doing.
      const settled = await pdfJobsSettled(server);
      const before = dbFingerprint(server);
      const auditFrom = dbValue<number>(server, "select coalesce(max(id), 0) from audit_events") ?? 0;
      const filesBefore = listFiles(server.storageDir).sort().join("\n");
      const sweepStarted = Date.now();
      let tried = 0;
      let accepted = 0;
      const acceptedSamples: string[] = [];
      for (const target of targets) {
        for (const variant of variants) {
          const original = target.build();
          const body = variant.body ? variant.body(target, original) : original;
          const answer = await send(server.url, target.method, target.path, {
            headers: { ...body.headers, ...variant.headers, cookie: admin },
            body: body.body,
            localAddress: SWEEP_IP,
          });
          tried += 1;
          if (!isCrossSiteRefusal(answer) || setCookies(answer).length > 0) {
            accepted += 1;
            acceptedSamples.push(`${target.label} [${variant.name}] → ${answer.status} ${answer.text.slice(0, 80)}`);
          }
        }
      }
      const after = dbFingerprint(server);
      // Each refusal is recorded (an audit_events row, below); every other table must be as it was.
      const changed = changedTables(before, after).filter((name) => name !== "audit_events");
      const audited = new Map(
        (dbRows(server, "select event, count(*) as n from audit_events where id > ? group by event", auditFrom) as Array<{ event: string; n: number }>).map((r) => [r.event, r.n]),
      );
      const refusalsAudited = audited.get("request.cross_site_refused") ?? 0;
      const otherAudited = [...audited].filter(([event]) => event !== "request.cross_site_refused");
      const filesAfter = listFiles(server.storageDir).sort().join("\n");
      const adminStill = await send(server.url, "GET", "/api/auth/user", { headers: { cookie: admin }, localAddress: SETUP_IP });

      t.info("cross-site requests tried (routes × variants)", `${targets.length} × ${variants.length} = ${tried}`);
      t.count("cross-site requests accepted", accepted, 0, acceptedSamples.slice(0, 3).join("; "));
      t.count("tables changed by the cross-site requests (audit_events apart)", changed.length, 0, changed.join(", "));
      // Refusals are aggregated per address and minute (decision 030): their counts are checked once the server has stopped.
      const sweepRefused = tried - accepted;
      const sweepMinutes = minutesTouched(sweepStarted, Date.now());
      t.check(
        "audit_events: request.cross_site_refused rows only, at most 2 per minute for the sweep's address",
        otherAudited.length === 0 && refusalsAudited <= 2 * sweepMinutes,
        `${refusalsAudited} refusal rows for ${sweepRefused} refusals in ${sweepMinutes} minute(s); other events: ${otherAudited.map(([e, n]) => `${e} ×${n}`).join(", ") || "none"}`,
      );
      t.check("storage files unchanged", filesBefore === filesAfter, "files appeared or vanished under STORAGE_DIR");
      const batchStaged = listFiles(server.storageDir).some((f) => f.includes(ids.batchId));
      t.check("the staged bulk batch is still there (publish and cancel were sent cross-site)", batchStaged, `no file of staging/${ids.batchId} left`);
      const status = dbValue<string>(server, "select status from lp_users where id = ?", ids.userId);
      const docs = dbValue<number>(server, "select count(*) from documents where id = ?", ids.documentId);
      const fundDocs = dbValue<number>(server, "select count(*) from fund_documents where id = ?", ids.fundDocumentId);
      const revoked = dbValue<number | null>(server, "select revoked_at from fund_access_users where id = ?", ids.revokeRequestId);
      t.check(
        "target user still pending; document, fund document, fund access still there",
        status === "pending" && docs === 1 && fundDocs === 1 && revoked === null,
        `status ${status}, document rows ${docs}, fund document rows ${fundDocs}, revoked_at ${revoked}`,
      );
      const c = ids.capital;
      const entryStatus = (id: string) => dbValue<string>(server, "select status from ledger_entries where id = ?", id) ?? "gone";
      const memberCount = (entityId: string, userId: string) => dbValue<number>(server, "select count(*) from entity_members where entity_id = ? and user_id = ?", entityId, userId);
      const capitalState = {
        drafts: [c.draftCallId, c.deleteCallId, c.draftDistributionId, c.deleteDistributionId, c.formDraftCallId, c.formDeleteCallId, c.changeCallId].map(entryStatus).join(","),
        viewer: [c.entityId, c.formEntityId].map((e) => memberCount(e, c.viewerId)).join(","),
        newcomer: [c.entityId, c.formEntityId].map((e) => memberCount(e, c.newcomerId)).join(","),
        payments: dbValue<number>(server, "select count(*) from call_payments"),
        commitments: dbValue<number>(server, "select count(*) from commitment_changes"),
      };
      t.check(
        "capital: drafts still drafts, viewer still a member, newcomer none, no payment, commitment or change (publish, delete, members, the ledger pages' forms sent cross-site)",
        JSON.stringify(capitalState) === JSON.stringify({ drafts: Array(7).fill("draft").join(","), viewer: "1,1", newcomer: "0,0", payments: 0, commitments: 2 }),
        JSON.stringify(capitalState),
      );
      const q = STATEMENT_QUARTERS;
      const statementsState = {
        pnlQuarters: dbRows(server, "select distinct quarter from pnl_rows order by quarter").map((r) => (r as { quarter: string }).quarter).join(","),
        quarters: dbRows(server, "select quarter || ' v' || version || ' ' || status as q from statement_quarters order by quarter, version").map((r) => (r as { q: string }).q).join(","),
        watermark: dbValue<string>(server, "select value from firm_settings where key = 'statements_watermark'") ?? "unset",
        historyValuations: dbValue<number>(server, "select count(*) from valuations where date = '2024-05-31'"),
      };
      const statementsExpected = {
        pnlQuarters: [q.published, q.toPublish, q.pagePublish].sort().join(","),
        quarters: `${q.published} v1 published`,
        watermark: "unset",
        historyValuations: 0,
      };
      t.check("the PDF jobs of the setup finished before the sweep (their writes are not the requests')", settled, "pdf_jobs still running after 30 s");
      t.check(
        "statements: no P&L imported, no quarter published or restated, watermark unset, no history imported (the imports, publish, restate and watermark sent cross-site)",
        JSON.stringify(statementsState) === JSON.stringify(statementsExpected),
        JSON.stringify(statementsState),
      );
      t.check("admin session survives (logout/login sent cross-site)", adminStill.status === 200, `GET /api/auth/user → ${adminStill.status}`);
      const logged = server.logLines().filter((line) => line.includes('"request.cross_site_refused"')).length;
      t.info("refusals logged as request.cross_site_refused", logged);
      for (const sample of acceptedSamples.slice(0, 5)) t.note(`accepted: ${sample}`);
      // A cross-site logout that got through ended the admin's session: sign in again for the rest.
      if (adminStill.status !== 200) admin = setup.adminCookie = await setup.signIn(setup.adminEmail);

      ctx.progress(`cross-site sweep done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      // ── legitimate requests, effect checked ──────────────────────────────
      const legit: Array<{ name: string; headers: Record<string, string> }> = [
        // A browser on APP_URL: its Host, its Origin (React Router's own check compares the two).
        { name: "same-origin browser", headers: { host: new URL(appUrl).host, origin: appUrl, "sec-fetch-site": "same-origin" } },
        { name: "Origin = Host, no Sec-Fetch-Site", headers: { origin: hostOrigin } },
        { name: "no Origin, no Sec-Fetch-Site (curl)", headers: {} },
      ];
      // One user per status operation, toggled by each kind (approve, reject, approve); fresh documents to delete.
      const apiUser = (await setup.register()).id;
      const formUser = (await setup.register()).id;
      const fresh: Array<{ status: "approved" | "rejected"; apiDoc: string; formDoc: string }> = [];
      for (let i = 0; i < legit.length; i++) {
        fresh.push({ status: i % 2 ? "rejected" : "approved", apiDoc: await setup.uploadDocument(), formDoc: await setup.uploadDocument() });
      }
      // One investor and one newsletter subscriber per kind of client, for the one-click unsubscribes.
      const mailed: Array<{ userId: string; documentToken: string; subscriberId: string; newsletterToken: string }> = [];
      for (let i = 0; i < legit.length; i++) {
        const user = await setup.register();
        const sub = await setup.subscriber();
        mailed.push({ userId: user.id, documentToken: setup.documentMailToken(user.id), subscriberId: sub.id, newsletterToken: sub.unsubscribeToken });
      }
      // Capital accounts: a draft call to publish (API) and an entity to add the newcomer to (the entity page's form), per kind of client.
      const capitalFresh: Array<{ draft: string; entity: string; formDraft: string }> = [];
      for (let i = 0; i < legit.length; i++) {
        const made = async (path: string, body: Body) => {
          const answer = await setup.call("POST", path, body, admin);
          if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${answer.text.slice(0, 200)}`);
          return (JSON.parse(answer.text) as { id: string }).id;
        };
        capitalFresh.push({
          draft: await made("/api/capital-calls", jsonBody(callBody())),
          entity: await made("/api/entities", jsonBody({ name: `Csrf Entity ${unique()}`, kind: "company", members: [{ userId: ids.capital.ownerId, role: "owner" }] })),
          formDraft: await made("/api/capital-calls", jsonBody(callBody())),
        });
      }
      const oneClick = formBody({ "List-Unsubscribe": "One-Click" });
      const redirected = (a: HttpAnswer) => a.status === 302 || a.status === 303;
      const subscribed = (email: string) => dbValue<number>(server, "select count(*) from newsletter_subscribers where email = ?", email) === 1;
      const statusOf = (id: string) => dbValue<string>(server, "select status from lp_users where id = ?", id);
      const docGone = (id: string) => dbValue<number>(server, "select count(*) from documents where id = ?", id) === 0;
      let effectTried = 0;
      let effectRefused = 0;
      let operationCount = 0;
      for (const [i, variant] of legit.entries()) {
        const f = fresh[i]!;
        const m = mailed[i]!;
        const cap = capitalFresh[i]!;
        const go = (method: string, path: string, body: Body, cookie = "") =>
          send(server.url, method, path, {
            headers: { ...body.headers, ...variant.headers, ...(cookie ? { cookie } : {}) },
            body: body.body,
            localAddress: EFFECT_IP,
          });
        const nlApi = `nl-api-${unique()}@example.com`;
        const nlForm = `nl-form-${unique()}@example.com`;
        const operations: Array<[string, () => Promise<boolean>]> = [
          ["newsletter subscribe (API)", async () => (await go("POST", "/api/newsletter", jsonBody({ email: nlApi }))).status === 202 && subscribed(nlApi)],
          ["newsletter subscribe (form)", async () => redirected(await go("POST", "/newsletter", formBody({ email: nlForm }))) && subscribed(nlForm)],
          [
            "sign-in (API)",
            async () => {
              const a = await go("POST", "/api/auth/login", jsonBody({ email: signer.email, password: PASSWORD }));
              return a.status === 200 && sessionPair(a) !== "";
            },
          ],
          [
            "sign-in (form /lp/login)",
            async () => {
              const a = await go("POST", "/lp/login", formBody({ email: signer.email, password: PASSWORD }));
              return redirected(a) && sessionPair(a) !== "";
            },
          ],
          [
            "admin sign-in (form /admin/login): on to the code step",
            async () => {
              const a = await go("POST", "/admin/login", formBody({ email: ids.adminEmail, password: PASSWORD }));
              return redirected(a) && headerValue(a, "location") === "/login/two-factor" && sessionPair(a) !== "";
            },
          ],
          [
            "status change (PATCH API)",
            async () =>
              (await go("PATCH", `/api/auth/users/${apiUser}/status`, jsonBody({ status: f.status }), admin)).status === 200 &&
              statusOf(apiUser) === f.status,
          ],
          [
            "status change (dashboard intent)",
            async () =>
              redirected(await go("POST", "/admin/dashboard", formBody({ intent: "status", userId: formUser, status: f.status }), admin)) &&
              statusOf(formUser) === f.status,
          ],
          // RFC 8058: no cookie; with no Origin this is what a mail provider sends, with one what the page's button sends.
          [
            "one-click unsubscribe of new-document mails (no cookie)",
            async () =>
              (await go("POST", `/unsubscribe/documents?token=${encodeURIComponent(m.documentToken)}`, oneClick)).status === 200 &&
              dbValue<string>(server, "select document_mail from lp_users where id = ?", m.userId) === "none",
          ],
          [
            "one-click unsubscribe of the newsletter (no cookie)",
            async () =>
              (await go("POST", `/unsubscribe/newsletter?token=${encodeURIComponent(m.newsletterToken)}`, oneClick)).status === 200 &&
              dbValue<string>(server, "select status from newsletter_subscribers where id = ?", m.subscriberId) === "unsubscribed",
          ],
          [
            "publish a draft call (API)",
            async () =>
              (await go("POST", `/api/capital-calls/${cap.draft}/publish`, { headers: {} }, admin)).status === 200 &&
              dbValue<string>(server, "select status from ledger_entries where id = ?", cap.draft) === "published",
          ],
          [
            "add a member (entity page intent)",
            async () =>
              redirected(await go("POST", `/admin/entities/${cap.entity}`, formBody({ intent: "add-member", email: ids.capital.newcomerEmail, role: "viewer" }), admin)) &&
              dbValue<number>(server, "select count(*) from entity_members where entity_id = ? and user_id = ?", cap.entity, ids.capital.newcomerId) === 1,
          ],
          [
            "publish a draft call (ledger entry page intent)",
            async () =>
              redirected(await go("POST", `/admin/ledger/${cap.formDraft}`, formBody({ intent: "publish" }), admin)) &&
              dbValue<string>(server, "select status from ledger_entries where id = ?", cap.formDraft) === "published",
          ],
          ["delete document (API)", async () => (await go("DELETE", `/api/documents/${f.apiDoc}`, { headers: {} }, admin)).status === 200 && docGone(f.apiDoc)],
          [
            "delete document (documents page intent)",
            async () =>
              redirected(await go("POST", "/admin/documents", formBody({ intent: "delete-document", documentId: f.formDoc }), admin)) &&
              docGone(f.formDoc),
          ],
        ];
        // Statements (issue 25): a quarter's P&L written through the JSON import (other amounts each kind of client, still
        // tying), and the watermark setting switched from the statements page (on, off, on).
        const fees = -125_000 - i * 100;
        const pnlText = [PNL_HEADER, ...[ids.capital.entityId, ids.capital.formEntityId].map((e) => [e, "fund-i", STATEMENT_QUARTERS.imported, (fees / 100).toFixed(2), "0.00", "0.00", "0.00", (-fees / 100).toFixed(2), "0.00"].join(","))].join("\n");
        const watermark = i % 2 === 0;
        operations.push(
          [
            "P&L import, committed (JSON)",
            async () =>
              (await go("POST", `/api/statements/import?fund=fund-i&commit=1`, { headers: { "content-type": "text/csv" }, body: pnlText }, admin)).status === 201 &&
              dbValue<number>(server, "select management_fees_minor from pnl_rows where quarter = ? and entity_id = ?", STATEMENT_QUARTERS.imported, ids.capital.entityId) === fees,
          ],
          [
            "watermark setting (statements page intent)",
            async () =>
              redirected(await go("POST", "/admin/funds/fund-i/statements", formBody({ intent: "statements-watermark", ...(watermark ? { watermark: "on" } : {}) }), admin)) &&
              dbValue<string>(server, "select value from firm_settings where key = 'statements_watermark'") === String(watermark),
          ],
        );
        operationCount = operations.length;
        for (const [name, run] of operations) {
          effectTried += 1;
          if (!(await run())) {
            effectRefused += 1;
            t.note(`legit refused: ${name} [${variant.name}]`);
          }
        }
      }
      t.info("legit requests with their effect checked", `${operationCount} operations × ${legit.length} kinds = ${effectTried}`);
      t.count("legit requests refused or without effect", effectRefused, 0);

      ctx.progress(`effect checks done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      // ── every route: a legitimate request is never stopped by the cross-site rule ──
      let routeTried = 0;
      let routeRefused = 0;
      for (const target of targets) {
        for (const variant of legit.slice(0, 2)) {
          // The checks run before any action: a body that skips the bcrypt work is enough here.
          const body = (target.quick ?? target.build)();
          const cookie = target.role === "admin" ? admin : target.role === "investor" ? signer.cookie : "";
          const answer = await send(server.url, target.method, target.path, {
            headers: { ...body.headers, ...variant.headers, ...(cookie ? { cookie } : {}) },
            body: body.body,
            localAddress: ROUTES_IP,
          });
          routeTried += 1;
          if (isCrossSiteRefusal(answer) || isActionOriginRefusal(answer)) {
            routeRefused += 1;
            if (routeRefused <= 5) t.note(`legit refused by a cross-site check: ${target.label} [${variant.name}] → ${answer.status}`);
          }
        }
      }
      t.info("legit requests on every route (same-origin, Origin = Host)", `${targets.length} × 2 = ${routeTried}`);
      t.count("legit requests refused by a cross-site check", routeRefused, 0);

      ctx.progress(`route checks done (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      // ── a flood of refusals: the audit trail stays small, every refusal is still counted ──
      const floodFrom = dbValue<number>(server, "select coalesce(max(id), 0) from audit_events") ?? 0;
      const floodStarted = Date.now();
      const floodOrigin = `https://${"o".repeat(FLOOD_ORIGIN_BYTES - "https://.example".length)}.example`;
      const floodPath = `/api/newsletter/${"p".repeat(FLOOD_PATH_BYTES - "/api/newsletter/".length)}`;
      let floodSent = 0;
      let floodRefused = 0;
      const floodOther: string[] = [];
      await Promise.all(
        Array.from({ length: FLOOD_WORKERS }, async () => {
          while (floodSent < FLOOD_POSTS) {
            floodSent += 1;
            const answer = await send(server.url, "POST", floodPath, {
              headers: { "content-type": "application/json", origin: floodOrigin },
              body: "{}",
              localAddress: FLOOD_IP,
            });
            if (isCrossSiteRefusal(answer)) floodRefused += 1;
            else if (floodOther.length < 3) floodOther.push(`${answer.status} ${answer.text.slice(0, 80)}`);
          }
        }),
      );
      const floodMinutes = minutesTouched(floodStarted, Date.now());
      // A graceful stop writes the minute's counts still held in memory.
      const exit = await server.stop();
      t.check("SIGTERM: the server stops with exit code 0", exit.code === 0, `exit code ${exit.code}, signal ${exit.signal}`);
      t.count(`flood: cross-site posts (${FLOOD_ORIGIN_BYTES / 1024} KB Origin, ${FLOOD_PATH_BYTES / 1024} KB path) not refused`, FLOOD_POSTS - floodRefused, 0, floodOther.join("; "));
      // The flood's rows: its address's, and a budget row if it came to that (the sweep's last counts land here too, by their own address).
      const floodRows = dbRows(
        server,
        `select count(*) as rows, coalesce(sum(${ROW_BYTES}), 0) as bytes,
                coalesce(sum(case when event = 'request.cross_site_refused' then coalesce(json_extract(details, '$.count'), 1) else 0 end), 0) as counted
           from audit_events where id > ? and (ip = ? or event = 'audit.flood_budget_reached')`,
        floodFrom,
        FLOOD_IP,
      )[0] as { rows: number; bytes: number; counted: number };
      t.info(`flood: audit_events bytes added by ${FLOOD_POSTS} refusals`, floodRows.bytes);
      t.info("flood: audit_events rows added", `${floodRows.rows} in ${floodMinutes} minute(s)`);
      t.atMost("flood: audit_events bytes added", floodRows.bytes, FLOOD_BYTES_BUDGET);
      t.atMost("flood: audit_events rows added (2 a minute for one address)", floodRows.rows, 2 * floodMinutes);
      t.count("flood: refusals counted by the rows (sum of count)", floodRows.counted, floodRefused);
      const sweepCounted =
        dbValue<number>(
          server,
          "select coalesce(sum(coalesce(json_extract(details, '$.count'), 1)), 0) from audit_events where id > ? and event = 'request.cross_site_refused' and ip = ?",
          auditFrom,
          SWEEP_IP,
        ) ?? 0;
      t.count("sweep: refusals counted by the rows (sum of count)", sweepCounted, sweepRefused);
      t.count("server crashes", server.unexpectedExits(), 0);
    } finally {
      await server.stop();
    }
    return t.result();
  },
};
