/**
 * statements: publishing a quarter's statements survives a kill (issue 25;
 * decision 041). A fund quarter that ties is set up in the SQLite file (N
 * entities, each with a commitment, its share of a published call due in the
 * quarter, a valuation at the quarter end and P&L rows that tie), the admin
 * publishes it through the JSON API while clients load the home page, and the
 * server is killed with SIGKILL once about half of the PDFs are made. After a
 * restart the job resumes on its own. Checked from the file and the storage
 * folder: every entity has exactly one statement of the version, each with
 * its own document (a PDF file in storage, addressed to that entity alone),
 * no document is made twice, none is missing, no file is left without its
 * row, no item failed, and the job reads done = total.
 */
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { createAdmin, jsonBody, openDatabase, PASSWORD, request, sameOrigin, signIn, sleep, startServer, Tally, type AppServer, type Section } from "./harness";

/** HARDENING_PLANT=1: a statement's document made a second time after the restart, to show the checks fail. */
const PLANT = process.env.HARDENING_PLANT === "1";
const QUARTER = "2026-Q1";
const FUND = "fund-i";

type Job = { done: number; total: number; failed: number };

/** N entities of Fund I, each committed, called (due inside the quarter), valued at its end, with P&L rows that tie. */
function seedQuarter(server: AppServer, count: number): string[] {
  const db = openDatabase(server, false);
  try {
    const fundId = (db.prepare("select id from funds where slug = ?").get(FUND) as { id: string }).id;
    const entryId = randomUUID();
    const share = 250_000_00;
    const ids: string[] = [];
    db.transaction(() => {
      db.prepare(
        "insert into ledger_entries (id, fund_id, kind, status, number, date, due_date, published_at) values (?, ?, 'call', 'published', 1, '2026-01-12', '2026-02-12', ?)",
      ).run(entryId, fundId, Date.now());
      db.prepare("insert into ledger_lines (entry_id, position, type, amount_minor) values (?, 0, 'investment', ?)").run(entryId, share * count);
      const entity = db.prepare("insert into entities (id, name, kind) values (?, ?, 'company')");
      const commitment = db.prepare("insert into commitments (id, entity_id, fund_id, amount_minor, accepted_on) values (?, ?, ?, ?, '2025-12-01')");
      const change = db.prepare("insert into commitment_changes (id, commitment_id, amount_minor, effective_on) values (?, ?, ?, '2025-12-01')");
      const allocation = db.prepare("insert into ledger_allocations (entry_id, entity_id, position, amount_minor) values (?, ?, 0, ?)");
      const valuation = db.prepare("insert into valuations (id, fund_id, entity_id, date, nav_minor) values (?, ?, ?, '2026-03-31', ?)");
      const pnl = db.prepare(
        "insert into pnl_rows (fund_id, quarter, entity_id, management_fees_minor, partnership_expenses_minor, other_income_minor, realized_gain_minor, unrealized_gain_change_minor, carried_interest_change_minor) values (?, ?, ?, ?, ?, 0, 0, ?, 0)",
      );
      for (let i = 0; i < count; i++) {
        const id = randomUUID();
        ids.push(id);
        const commitmentId = randomUUID();
        entity.run(id, `Statements Holding ${String(i + 1).padStart(4, "0")} AG`);
        commitment.run(commitmentId, id, fundId, 1_000_000_00);
        change.run(randomUUID(), commitmentId, 1_000_000_00);
        allocation.run(entryId, id, share);
        // NAV = contributions + the quarter's P&L: fees and expenses negative, the unrealised gain positive.
        const fees = -(1_250_00 + i);
        const expenses = -310_00;
        const gain = 12_000_00 + i * 7;
        valuation.run(randomUUID(), fundId, id, share + fees + expenses + gain);
        pnl.run(fundId, QUARTER, id, fees, expenses, gain);
      }
    })();
    return ids;
  } finally {
    db.close();
  }
}

async function jobOf(server: AppServer, cookie: string, jobId: string): Promise<Job | null> {
  try {
    const answer = await request(server.url, "GET", `/api/statements/jobs/${jobId}`, { headers: { cookie }, timeoutMs: 5_000 });
    return answer.status === 200 ? (JSON.parse(answer.text) as Job) : null;
  } catch {
    return null;
  }
}

/** Clients reading the home page until `stop` says so; the count of answers and of 5xx. */
function loadHome(server: AppServer, clients: number, stop: () => boolean) {
  const tally = { answers: 0, serverErrors: 0 };
  const loops = Array.from({ length: clients }, async () => {
    while (!stop()) {
      try {
        const answer = await request(server.url, "GET", "/", { timeoutMs: 10_000 });
        tally.answers += 1;
        if (answer.status >= 500) tally.serverErrors += 1;
      } catch {
        // The kill resets connections: not the server's answer.
        await sleep(50);
      }
    }
  });
  return { tally, done: Promise.all(loops) };
}

export const section: Section = {
  name: "statements",
  async run(ctx) {
    const t = new Tally();
    const count = ctx.full ? 2000 : 150;
    const server = await startServer(ctx, { name: "statements" });
    try {
      const email = `statements-admin-${randomUUID().slice(0, 8)}@example.com`;
      createAdmin(server, email, PASSWORD);
      let cookie = await signIn(server, email, PASSWORD);
      const entityIds = seedQuarter(server, count);
      ctx.progress(`${count} entities seeded; publishing ${FUND} ${QUARTER}`);

      let loading = true;
      const load = loadHome(server, 4, () => !loading);
      const body = jsonBody({ fund: FUND, quarter: QUARTER });
      const published = await request(server.url, "POST", "/api/statements/publish", { headers: { ...body.headers, ...sameOrigin(server), cookie }, body: body.body });
      t.check("publish answers 202 with a job", published.status === 202, `${published.status}: ${published.text.slice(0, 300)}`);
      const jobId = (JSON.parse(published.text || "{}") as { jobId?: string }).jobId ?? "";

      // Kill once about half the PDFs are made.
      let beforeKill: Job | null = null;
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        beforeKill = await jobOf(server, cookie, jobId);
        if (beforeKill && beforeKill.done >= Math.floor(count / 2)) break;
        await sleep(50);
      }
      await server.kill9();
      t.info("PDFs made when the server was killed", beforeKill ? `${beforeKill.done} of ${beforeKill.total}` : "unknown");
      t.check("the kill came halfway (some made, some not)", !!beforeKill && beforeKill.done > 0 && beforeKill.done < count, JSON.stringify(beforeKill));

      await server.start();
      cookie = await signIn(server, email, PASSWORD);
      let after: Job | null = null;
      const resumed = Date.now();
      while (Date.now() - resumed < 180_000) {
        after = await jobOf(server, cookie, jobId);
        if (after && after.done + after.failed >= after.total) break;
        await sleep(200);
      }
      loading = false;
      await load.done;
      t.info("seconds to finish after the restart", ((Date.now() - resumed) / 1000).toFixed(1));
      t.check("the job resumed and finished: done = total", !!after && after.done === count && after.total === count, JSON.stringify(after));
      t.count("items that failed", after?.failed ?? -1);
      t.info("home page answers while publishing", load.tally.answers);
      t.count("home page 5xx while publishing", load.tally.serverErrors);

      const db = openDatabase(server, !PLANT);
      try {
        if (PLANT) {
          const row = db.prepare("select d.* from documents d join statements s on s.document_id = d.id limit 1").get() as Record<string, unknown>;
          db.prepare("insert into documents (id, title, category, file_name, file_path, file_size, mime_type, audience) values (?, ?, ?, ?, ?, ?, ?, 'selected')").run(
            randomUUID(),
            row.title,
            row.category,
            row.file_name,
            row.file_path,
            row.file_size,
            row.mime_type,
          );
          t.note("HARDENING_PLANT=1: a statement's document made twice");
        }
        const statements = db
          .prepare("select s.entity_id as entityId, s.document_id as documentId from statements s join statement_quarters q on q.id = s.quarter_id where q.quarter = ?")
          .all(QUARTER) as { entityId: string; documentId: string | null }[];
        const byEntity = new Map<string, number>();
        for (const s of statements) byEntity.set(s.entityId, (byEntity.get(s.entityId) ?? 0) + 1);
        t.count("entities without a statement", entityIds.filter((id) => !byEntity.has(id)).length);
        t.count("entities with more than one statement", [...byEntity.values()].filter((n) => n > 1).length);
        t.count("statements without their PDF", statements.filter((s) => !s.documentId).length);
        const docs = db.prepare("select id, title, file_path as filePath from documents where title like 'Capital account statement%'").all() as { id: string; title: string; filePath: string }[];
        const titles = new Map<string, number>();
        for (const d of docs) titles.set(d.title, (titles.get(d.title) ?? 0) + 1);
        t.count("statement documents made twice (same title)", [...titles.values()].filter((n) => n > 1).length);
        t.count("statement documents no statement names", docs.length - new Set(statements.map((s) => s.documentId)).size);
        const addressed = db
          .prepare(
            "select s.document_id as documentId, count(r.entity_id) as n, sum(r.entity_id = s.entity_id) as own from statements s left join document_recipient_entities r on r.document_id = s.document_id where s.document_id is not null group by s.document_id",
          )
          .all() as { documentId: string; n: number; own: number }[];
        t.count("statement PDFs not addressed to their entity alone", addressed.filter((a) => a.n !== 1 || a.own !== 1).length);
        const missingFiles = docs.filter((d) => {
          try {
            const head = Buffer.alloc(5);
            const fd = fs.openSync(path.join(server.storageDir, d.filePath), "r");
            fs.readSync(fd, head, 0, 5, 0);
            fs.closeSync(fd);
            return head.toString("latin1") !== "%PDF-";
          } catch {
            return true;
          }
        });
        t.count("statement documents whose PDF file is missing or not a PDF", missingFiles.length);
        const referenced = new Set((db.prepare("select file_path as p from documents").all() as { p: string }[]).map((r) => r.p));
        const area = path.join(server.storageDir, "documents");
        const orphans = fs.existsSync(area) ? fs.readdirSync(area).filter((name) => !referenced.has(`documents/${name}`)) : [];
        t.count("files in storage no document names (after the restart's reconcile)", orphans.length);
        t.info("statements made", `${statements.length} for ${count} entities`);
      } finally {
        db.close();
      }
    } finally {
      await server.stop();
    }
    return t.result();
  },
};
