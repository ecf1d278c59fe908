import fs from "node:fs";
import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import type { APIRequestContext, BrowserContext, Page } from "@playwright/test";
import { MIME, samplePdf } from "../helpers/sample-files";
import { registerViaApi, setStatusViaApi, userIdByEmail } from "./helpers/accounts";
import { startIsolatedServer, type IsolatedServer } from "./helpers/document-ui";
import { uploadDocument, type LpDocument } from "./helpers/documents";
import { apiLogin, parseCsv } from "./helpers/email-lists";
import { expect, expectToast, test as base } from "./helpers/fixtures";
import { loginForm, newAccount, newBrowserContext, openAdminPage, signInOverApi, signInWith, TEXT, waitHydrated, type Account } from "./helpers/portal";

/**
 * The admin's audit trail, /admin/activity (decision 022), with JavaScript and
 * without: the sidebar's 'Activity' link, the rows (newest first, each event's
 * label and name, the actor's e-mail or 'Visitor', the target, the client
 * address), the GET filters (event, actor, 'visitor', target, a range of UTC
 * days) and their 400 with field messages, keyset paging over more than a
 * page, and 'Download CSV' (the filtered rows, formula-safe, itself recorded).
 *
 * Why a server of its own per test: every request of every spec writes rows
 * into the shared server's trail (and a registration there mails every admin
 * it has), so only an empty trail lets a test say exactly which rows a page
 * or a filter must show. Rows for paging are put straight into that server's
 * database (the table only refuses updates and deletes).
 *
 * The texts are written out here, not imported from app/content, so a change
 * of wording that breaks the page fails a test.
 */

const TEXT_ACTIVITY = {
  heading: "Activity",
  columns: ["When", "Event", "Actor", "Target", "From", "Details"],
  visitor: "Visitor",
  caption: "Activity, newest first",
  timesInUtc: "Times are in UTC.",
  noMatch: "No activity matches these filters.",
  invalid: "Some filters could not be used. Correct them and filter again.",
  range: "The start date must be on or before the end date.",
  date: "Enter a date as YYYY-MM-DD.",
  event: "Choose an event from the list.",
  actor: "Enter an e-mail address or 'visitor' (at most 254 characters).",
  cursor: "This page link is not valid. Start again from the newest events.",
} as const;

/** The labels of the events these tests cause. */
const LABELS = {
  "auth.sign_in": "Signed in",
  "auth.sign_in_failed": "Sign-in failed",
  "auth.register": "Requested investor access",
  "auth.registration_link_requested": "Asked for a registration's confirmation link",
  "user.status_changed": "Changed an investor's status",
  "document.uploaded": "Uploaded a document",
  "audit.exported": "Exported the activity",
} as const;
type EventName = keyof typeof LABELS;

const CSV_HEADER = [
  "Time (UTC)",
  "Event",
  "Event name",
  "Actor",
  "Actor ID",
  "Target type",
  "Target ID",
  "Target",
  "IP address",
  "User agent",
  "Request ID",
  "Details",
];

const PAGE_SIZE = 50;
const PATH = "/admin/activity";

type Lab = {
  server: IsolatedServer;
  admin: Account;
  /** Requests to the server from this test's address, as a visitor (no session). */
  api: APIRequestContext;
  /** A browser of its own on the server (the project's JavaScript setting). */
  browserContext: (clientIp?: string) => Promise<BrowserContext>;
  /** The admin, signed in through /admin/login in a browser of their own; the page is on the overview. */
  adminPage: () => Promise<Page>;
  /** The admin's API session (its own context; sign-ins are recorded). */
  adminApi: () => Promise<APIRequestContext>;
  /** Run `fn` on a connection to the server's database. */
  db: <T>(fn: (db: Database.Database) => T) => T;
};

const test = base.extend<{ lab: Lab }>({
  lab: async ({ browser, playwright, jsEnabled, clientIp }, use, testInfo) => {
    const server = await startIsolatedServer();
    const contexts: BrowserContext[] = [];
    const apis: APIRequestContext[] = [];
    try {
      const admin = newAccount(testInfo, "admin");
      await server.createAdmin(admin);
      const api = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { "X-Forwarded-For": clientIp }, maxRedirects: 0 });
      apis.push(api);
      const browserContext = async (ip = clientIp) => {
        const context = await newBrowserContext(browser, { baseURL: server.baseURL, jsEnabled, clientIp: ip });
        contexts.push(context);
        return context;
      };
      await use({
        server,
        admin,
        api,
        browserContext,
        adminPage: async () => {
          const page = await (await browserContext()).newPage();
          // A real sign-in: the trail's first rows are the admin's own sign-ins.
          await signInOverApi(page, admin);
          await openAdminPage(page, jsEnabled, "overview");
          return page;
        },
        adminApi: async () => {
          const context = await playwright.request.newContext({ baseURL: server.baseURL, extraHTTPHeaders: { "X-Forwarded-For": clientIp }, maxRedirects: 0 });
          apis.push(context);
          await apiLogin(context, admin.email, admin.password);
          return context;
        },
        db: (fn) => {
          const db = new Database(server.databasePath, { fileMustExist: true });
          try {
            db.pragma("busy_timeout = 5000");
            return fn(db);
          } finally {
            db.close();
          }
        },
      });
    } finally {
      for (const context of contexts) await context.close();
      for (const api of apis) await api.dispose();
      await server.stop();
    }
  },
});

test.describe.configure({ timeout: 120_000 });

/* ------------------------------------------------------------------------ */
/* The page as a person reads it.                                            */
/* ------------------------------------------------------------------------ */

type ShownRow = {
  whenIso: string;
  when: string;
  label: string;
  event: string;
  actor: string;
  target: string;
  targetMeta: string;
  from: string;
  details: Record<string, string>;
};

const rowsOf = (page: Page) => page.getByTestId("activity-row");

/** Every row of the table, top to bottom. */
function shownRows(page: Page): Promise<ShownRow[]> {
  return rowsOf(page).evaluateAll((trs) =>
    trs.map((tr) => {
      const cells = [...tr.querySelectorAll("td")];
      const text = (el: Element | null | undefined) => (el?.textContent ?? "").trim();
      // Each cell holds one line (a span); the target's line is its label, then its type and id.
      const target = cells[3]!.querySelectorAll(":scope > span > span");
      const details: Record<string, string> = {};
      for (const dt of cells[5]!.querySelectorAll("dt")) details[text(dt)] = text(dt.nextElementSibling);
      return {
        whenIso: cells[0]!.querySelector("time")?.getAttribute("datetime") ?? "",
        when: text(cells[0]),
        label: text(cells[1]!.querySelector(":scope > span > span")),
        event: text(cells[1]!.querySelector("code")),
        actor: text(cells[2]),
        target: target.length > 1 ? text(target[0]) : text(cells[3]),
        targetMeta: target.length > 1 ? text(target[1]) : "",
        from: text(cells[4]!.querySelector("span")),
        details,
      };
    }),
  );
}

/** A row in short: 'event | actor | target'. */
type Brief = `${string} | ${string} | ${string}`;
const brief = (event: EventName, actor: string, target: string): Brief => `${event} | ${actor} | ${target}`;

/** The table shows exactly these rows, in this order (polled: with JavaScript the page changes in place). */
async function expectRows(page: Page, expected: Brief[]) {
  await expect
    .poll(async () => (await shownRows(page)).map((r) => `${r.event} | ${r.actor} | ${r.target}`), { message: `the rows of ${page.url()}` })
    .toEqual(expected);
  if (expected.length === 0) await expect(page.getByRole("status").filter({ hasText: TEXT_ACTIVITY.noMatch })).toBeVisible();
}

/** 'Apr 03, 2026 14:05:09': the row's time as the page shows it (UTC). */
function adminTimestamp(iso: string): string {
  const d = new Date(iso);
  const month = new Intl.DateTimeFormat("en-US", { month: "short", timeZone: "UTC" }).format(d);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${month} ${two(d.getUTCDate())}, ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

function filterForm(page: Page) {
  const form = page.getByRole("search", { name: "Filter activity" });
  return {
    form,
    event: form.getByLabel("Event", { exact: true }),
    actor: form.getByLabel("Actor", { exact: true }),
    target: form.getByLabel("Target", { exact: true }),
    from: form.getByLabel("From", { exact: true }),
    to: form.getByLabel("To", { exact: true }),
    submit: form.getByRole("button", { name: "Filter" }),
    clear: form.getByRole("link", { name: "Clear filters" }),
    error: (field: "event" | "actor" | "target" | "from" | "to") => page.locator(`#activity-${field}-error`),
  };
}

type Filters = { event?: EventName; actor?: string; target?: string; from?: string; to?: string };

/** Fill the whole form (a field not given is emptied) and press 'Filter'; resolves with the page's answer. */
async function filterBy(page: Page, filters: Filters) {
  const f = filterForm(page);
  await f.event.selectOption(filters.event ? { label: LABELS[filters.event] } : { value: "" });
  await f.actor.fill(filters.actor ?? "");
  await f.target.fill(filters.target ?? "");
  await f.from.fill(filters.from ?? "");
  await f.to.fill(filters.to ?? "");
  // With JavaScript the loader's data comes from /admin/activity.data; without, the document itself.
  const answer = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return /^\/admin\/activity(\.data)?$/.test(url.pathname) && r.request().method() === "GET";
  });
  await f.submit.click();
  const response = await answer;
  await expect(page).toHaveURL((url) => url.pathname === PATH && sameFilters(url.searchParams, filters));
  return response;
}

/** The query holds these filters (empty fields may be sent empty). */
function sameFilters(params: URLSearchParams, filters: Filters): boolean {
  return (["event", "actor", "target", "from", "to"] as const).every((name) => (params.get(name) ?? "") === (filters[name] ?? ""));
}

/** The 'Download CSV' link. */
const downloadLink = (page: Page) => page.getByRole("link", { name: "Download CSV" });

/** The paging links of the table. */
function paging(page: Page) {
  const nav = page.getByRole("navigation", { name: "Activity pages" });
  return {
    nav,
    previous: nav.getByRole("link", { name: /^Previous/ }),
    next: nav.getByRole("link", { name: /^Next/ }),
    newest: nav.getByRole("link", { name: "Newest events" }),
  };
}

/** Today's UTC date, YYYY-MM-DD, moved by `days`. */
function utcDay(iso: string, days = 0): string {
  return new Date(Date.parse(`${iso.slice(0, 10)}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

const sidebar = (page: Page) => page.getByTestId("admin-sidebar");

/** Follow the sidebar's 'Activity' link to the page. */
async function openActivityFromSidebar(page: Page, jsEnabled: boolean) {
  const link = sidebar(page).getByRole("link", { name: "Activity", exact: true });
  await expect(link).not.toHaveAttribute("aria-current", "page");
  await link.click();
  await expect(page).toHaveURL((url) => url.pathname === PATH && url.search === "");
  await expect(page.getByRole("heading", { level: 1, name: TEXT_ACTIVITY.heading })).toBeVisible();
  await expect(link).toHaveAttribute("aria-current", "page");
  await expect(sidebar(page).locator("[aria-current=page]")).toHaveCount(1);
  await waitHydrated(page, jsEnabled);
}

/** A failed sign-in on /lp/login in a browser of its own (no session: the trail says 'Visitor'). */
async function failedSignIn(lab: Lab, jsEnabled: boolean, email: string, ip: string) {
  const context = await lab.browserContext(ip);
  const page = await context.newPage();
  expect((await page.goto("/lp/login"))?.status()).toBe(200);
  await waitHydrated(page, jsEnabled);
  await signInWith(page, { email, password: `wrong-${randomBytes(4).toString("hex")}` });
  await expect(loginForm(page).alert).toContainText(TEXT.invalidCredentials, { timeout: 15_000 });
  // Whoever is not an admin is sent to the admin login from the activity page too.
  await page.goto(PATH);
  await expect(page).toHaveURL(/\/admin\/login(\?|$)/);
  await context.close();
}

/** A client address of its own for a second person (the row's 'From'). */
function otherIp(clientIp: string): string {
  const [a, b, c, d] = clientIp.split(".").map(Number);
  return `${a}.${b}.${c}.${((d! + 100) % 254) + 1}`;
}

/* ------------------------------------------------------------------------ */

test("Activity in the sidebar: newest first, each event's label and name, the admin's e-mail or 'Visitor', target, address and details", async ({
  lab,
  jsEnabled,
  clientIp,
}, testInfo) => {
  const started = Date.now();
  const investor = newAccount(testInfo, "investor", { company: "Photon Capital" });
  const visitorIp = otherIp(clientIp);
  // A visitor requests access, then someone tries the investor's e-mail with a wrong password from another address.
  await registerViaApi(lab.api, investor);
  await failedSignIn(lab, jsEnabled, investor.email, visitorIp);
  // The admin signs in and approves the request on the overview.
  const page = await lab.adminPage();
  const pending = page.getByRole("region", { name: "Pending investor requests" });
  await pending.getByRole("listitem").filter({ hasText: investor.email.toLowerCase() }).getByRole("button", { name: "Approve" }).click();
  await expectToast(page, "User Approved", `${investor.name} has been approved.`);

  await openActivityFromSidebar(page, jsEnabled);
  const admin = lab.admin.email.toLowerCase();
  const email = investor.email.toLowerCase();
  await expect(page.getByRole("table").getByRole("columnheader")).toHaveText([...TEXT_ACTIVITY.columns]);
  await expect(page.getByText(TEXT_ACTIVITY.timesInUtc)).toBeVisible();
  await expectRows(page, [
    brief("user.status_changed", admin, email),
    brief("auth.sign_in", admin, admin),
    brief("auth.sign_in_failed", TEXT_ACTIVITY.visitor, email),
    brief("auth.register", TEXT_ACTIVITY.visitor, email),
    // Before the request: its confirmation link (the address is proved first; decision 028).
    brief("auth.registration_link_requested", TEXT_ACTIVITY.visitor, email),
  ]);
  // Fewer than a page: no paging, no 'Clear filters'.
  await expect(paging(page).nav).toHaveCount(0);
  await expect(filterForm(page).clear).toHaveCount(0);
  await expect(downloadLink(page)).toHaveAttribute("href", "/admin/activity.csv");

  const rows = await shownRows(page);
  for (const row of rows) {
    expect(row.label, row.event).toBe(LABELS[row.event as EventName]);
    expect(Date.parse(row.whenIso), `${row.event}: a time from this test`).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(row.whenIso)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(row.when, `${row.event}: the time in UTC`).toBe(adminTimestamp(row.whenIso));
  }
  const [approval, signIn, failed, register, linkRequested] = rows;
  // Who was approved, from what to what, by the admin at this test's address.
  expect(approval!.from).toBe(clientIp);
  expect(approval!.targetMeta).toMatch(/^user · /);
  expect(approval!.details).toMatchObject({ email, from: "pending", to: "approved" });
  expect(signIn!.from).toBe(clientIp);
  // The failed attempt: the visitor's own address, why, and no password anywhere.
  expect(failed!.from).toBe(visitorIp);
  expect(failed!.details).toMatchObject({ email, reason: "wrong e-mail or password" });
  expect(register!.details).toMatchObject({ email, outcome: "pending review" });
  expect(register!.from).toBe(clientIp);
  expect(linkRequested!.details).toMatchObject({ email, via: "register", outcome: "link sent" });
  expect(linkRequested!.from).toBe(clientIp);
  const table = page.getByRole("table", { name: TEXT_ACTIVITY.caption });
  await expect(table).not.toContainText("wrong-");
  await expect(table).not.toContainText(investor.password);
  // The browser's user agent and the request id, in the row's details.
  expect(failed!.details["Browser"]).toMatch(/Chrome/);
  expect(failed!.details["Request"]).toMatch(/^\S+$/);
});

test("the filters: by event, actor (an e-mail or 'visitor'), target and UTC days, alone and together; 'Clear filters' shows everything", async ({
  lab,
  jsEnabled,
}, testInfo) => {
  const a = newAccount(testInfo, "alpha");
  const b = newAccount(testInfo, "bravo");
  await registerViaApi(lab.api, a);
  await registerViaApi(lab.api, b);
  const wrong = await lab.api.post("/api/auth/login", { data: { email: a.email, password: "not-the-password" } });
  expect(wrong.status()).toBe(401);
  const adminApi = await lab.adminApi();
  await setStatusViaApi(adminApi, "", await userIdByEmail(adminApi, "", a.email), "approved");
  const page = await lab.adminPage();
  await openActivityFromSidebar(page, jsEnabled);

  const admin = lab.admin.email.toLowerCase();
  const alpha = a.email.toLowerCase();
  const bravo = b.email.toLowerCase();
  const V = TEXT_ACTIVITY.visitor;
  const all = [
    brief("auth.sign_in", admin, admin),
    brief("user.status_changed", admin, alpha),
    brief("auth.sign_in", admin, admin),
    brief("auth.sign_in_failed", V, alpha),
    brief("auth.register", V, bravo),
    brief("auth.registration_link_requested", V, bravo),
    brief("auth.register", V, alpha),
    brief("auth.registration_link_requested", V, alpha),
  ];
  await expectRows(page, all);

  // By event.
  let response = await filterBy(page, { event: "auth.register" });
  expect(response.status()).toBe(200);
  await expectRows(page, all.filter((r) => r.startsWith("auth.register |")));
  await expect(filterForm(page).event).toHaveValue("auth.register");
  await expect(downloadLink(page)).toHaveAttribute("href", "/admin/activity.csv?event=auth.register");
  await expect(filterForm(page).clear).toBeVisible();

  // By actor: the admin's e-mail, typed in capitals.
  await filterBy(page, { actor: lab.admin.email.toUpperCase() });
  await expectRows(page, all.filter((r) => r.includes(` | ${admin} |`)));

  // 'visitor': everything done by people who were not signed in.
  await filterBy(page, { actor: "visitor" });
  await expectRows(page, all.filter((r) => r.includes(` | ${V} |`)));
  await expect(downloadLink(page)).toHaveAttribute("href", "/admin/activity.csv?actor=visitor");

  // By target e-mail.
  await filterBy(page, { target: a.email });
  await expectRows(page, all.filter((r) => r.endsWith(`| ${alpha}`)));

  // All three together.
  response = await filterBy(page, { event: "auth.sign_in_failed", actor: "visitor", target: a.email });
  expect(response.status()).toBe(200);
  await expectRows(page, [brief("auth.sign_in_failed", V, alpha)]);
  await expect(downloadLink(page)).toHaveAttribute(
    "href",
    `/admin/activity.csv?${new URLSearchParams({ event: "auth.sign_in_failed", actor: "visitor", target: a.email })}`,
  );

  // UTC days: today (as the rows' own times say) from and to; the day after; the day before.
  await filterBy(page, {});
  await expectRows(page, all);
  const times = (await shownRows(page)).map((r) => r.whenIso);
  const today = utcDay(times[0]!);
  const todays = all.filter((_, i) => times[i]!.startsWith(today));
  await filterBy(page, { from: today, to: today });
  await expectRows(page, todays);
  await expect(filterForm(page).from).toHaveValue(today);
  await filterBy(page, { from: utcDay(today, 1) });
  await expectRows(page, []);
  await expect(downloadLink(page)).toBeVisible();
  await filterBy(page, { to: utcDay(today, -1) });
  await expectRows(page, all.filter((_, i) => times[i]! < `${today}T`));
  await filterBy(page, { event: "auth.sign_in", from: utcDay(today, -1), to: today });
  await expectRows(page, todays.filter((r) => r.startsWith("auth.sign_in |")));

  // 'Clear filters': every row again, the address and the form empty.
  await filterForm(page).clear.click();
  await expect(page).toHaveURL((url) => url.pathname === PATH && url.search === "");
  await expectRows(page, all);
  await expect(filterForm(page).clear).toHaveCount(0);
});

test("after 'Clear filters' the form shows no filter any more", async ({ lab, jsEnabled }) => {
  const page = await lab.adminPage();
  await openActivityFromSidebar(page, jsEnabled);
  await filterBy(page, { event: "auth.sign_in", actor: "visitor", target: "someone@example.com", from: "2026-01-01", to: "2026-01-02" });
  await expectRows(page, []);
  await filterForm(page).clear.click();
  await expect(page).toHaveURL((url) => url.pathname === PATH && url.search === "");
  await expectRows(page, [brief("auth.sign_in", lab.admin.email.toLowerCase(), lab.admin.email.toLowerCase())]);
  const f = filterForm(page);
  await expect(f.event).toHaveValue("");
  for (const field of [f.actor, f.target, f.from, f.to]) await expect(field).toHaveValue("");
  // Filtering again now filters by nothing.
  await f.submit.click();
  await expectRows(page, [brief("auth.sign_in", lab.admin.email.toLowerCase(), lab.admin.email.toLowerCase())]);
});

test("filters that cannot be used answer 400 with the message under the field, and keep what was typed", { tag: "@no-js" }, async ({ lab, jsEnabled }) => {
  const page = await lab.adminPage();
  await openActivityFromSidebar(page, jsEnabled);
  const f = filterForm(page);
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = utcDay(today, -1);

  // A start after the end, through the form.
  const response = await filterBy(page, { actor: "visitor", from: today, to: yesterday });
  expect(response.status(), "the answer to a start after the end").toBe(400);
  await expect(f.error("to")).toHaveText(TEXT_ACTIVITY.range);
  await expect(f.to).toHaveAttribute("aria-invalid", "true");
  await expect(f.to).toHaveAttribute("aria-describedby", /\bactivity-to-error\b/);
  await expect(f.to).toHaveAccessibleDescription(TEXT_ACTIVITY.range);
  await expect(f.from).not.toHaveAttribute("aria-invalid", "true");
  await expect(f.error("from")).toHaveCount(0);
  await expect(page.getByRole("alert").filter({ hasText: TEXT_ACTIVITY.invalid })).toBeVisible();
  await expect(f.actor).toHaveValue("visitor");
  await expect(f.from).toHaveValue(today);
  await expect(f.to).toHaveValue(yesterday);
  // No rows and nothing to download from filters that mean nothing.
  await expect(rowsOf(page)).toHaveCount(0);
  await expect(downloadLink(page)).toHaveCount(0);
  await expect(paging(page).nav).toHaveCount(0);

  // Corrected: the rows again.
  const fixed = await filterBy(page, { actor: "", from: yesterday, to: today });
  expect(fixed.status()).toBe(200);
  await expect(page.getByRole("alert").filter({ hasText: TEXT_ACTIVITY.invalid })).toHaveCount(0);
  await expect(f.error("to")).toHaveCount(0);
  const admin = lab.admin.email.toLowerCase();
  await expectRows(page, [brief("auth.sign_in", admin, admin)]);

  // Typed addresses: each message under its own field.
  const cases: [string, "event" | "actor" | "from" | "to" | null, string][] = [
    ["from=2026-02-30", "from", TEXT_ACTIVITY.date],
    ["to=25.11.2026", "to", TEXT_ACTIVITY.date],
    ["event=auth.no_such_event", "event", TEXT_ACTIVITY.event],
    [`actor=${"a".repeat(250)}%40example.com`, "actor", TEXT_ACTIVITY.actor],
    ["before=not-a-page", null, TEXT_ACTIVITY.cursor],
  ];
  for (const [query, field, message] of cases) {
    const answer = await page.goto(`${PATH}?${query}`);
    expect(answer?.status(), query).toBe(400);
    await expect(page.getByRole("heading", { level: 1, name: TEXT_ACTIVITY.heading })).toBeVisible();
    if (field) {
      await expect(f.error(field), query).toHaveText(message);
      await expect(page.locator(`#activity-${field}`)).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("alert").filter({ hasText: TEXT_ACTIVITY.invalid })).toBeVisible();
    } else {
      await expect(page.getByRole("alert").filter({ hasText: message }), query).toBeVisible();
    }
    await expect(rowsOf(page)).toHaveCount(0);
  }

  // The export refuses the same filters, as JSON with the field's message.
  const csv = await page.request.get(`/admin/activity.csv?from=${today}&to=${yesterday}`);
  expect(csv.status()).toBe(400);
  expect(csv.headers()["content-type"]).toMatch(/^application\/json/);
  const body = (await csv.json()) as { error: string; fields?: Record<string, string[]> };
  expect(body.fields?.to).toEqual([TEXT_ACTIVITY.range]);
});

test("only an admin reads the trail: a visitor and an approved investor are sent to the admin login, and the export answers them 401 and 403 as JSON", async ({
  lab,
  jsEnabled,
}, testInfo) => {
  const investor = newAccount(testInfo, "investor");
  await registerViaApi(lab.api, investor);
  const adminApi = await lab.adminApi();
  await setStatusViaApi(adminApi, "", await userIdByEmail(adminApi, "", investor.email), "approved");

  // Each of them asks for the page and for the export (with a filter, as a link would).
  const refusals: { who: string; status: number; error: string }[] = [
    { who: "visitor", status: 401, error: "Authentication required" },
    { who: "investor", status: 403, error: "Admin access required" },
  ];
  for (const { who, status, error } of refusals) {
    if (who === "investor") await apiLogin(lab.api, investor.email, investor.password);
    const page = await lab.api.get(PATH);
    expect([302, 303], `${who}: GET ${PATH}`).toContain(page.status());
    expect(new URL(page.headers()["location"]!, lab.server.baseURL).pathname, `${who}: sent to`).toBe("/admin/login");
    const csv = await lab.api.get("/admin/activity.csv?event=auth.sign_in");
    expect(csv.status(), `${who}: the export`).toBe(status);
    expect(csv.headers()["content-type"]).toMatch(/^application\/json/);
    expect(csv.headers()["content-disposition"]).toBeUndefined();
    expect(await csv.json()).toEqual({ error });
  }

  // A refused export is no export: the admin finds none in the trail, only the investor's sign-in.
  const page = await lab.adminPage();
  await openActivityFromSidebar(page, jsEnabled);
  await filterBy(page, { event: "audit.exported" });
  await expectRows(page, []);
  await filterBy(page, { actor: investor.email });
  await expectRows(page, [brief("auth.sign_in", investor.email.toLowerCase(), investor.email.toLowerCase())]);
});

test("more than a page: Next and Previous walk the filtered rows 50 at a time, in order, each row once, stable while rows arrive", async ({
  lab,
  jsEnabled,
}) => {
  const tag = randomBytes(3).toString("hex");
  // 125 failed sign-ins and 40 registrations, a few seconds apart, several sharing a millisecond,
  // inserted in a shuffled order (so the ids do not follow the times).
  const base = Date.now() - 3_600_000;
  const made = Array.from({ length: 165 }, (_, i) => ({
    n: i,
    at: base + Math.floor(i / 3) * 1000,
    event: i % 4 === 1 && i < 160 ? "auth.register" : "auth.sign_in_failed",
    label: `paged-${tag}-${String(i).padStart(3, "0")}@example.com`,
  }));
  expect(made.filter((m) => m.event === "auth.sign_in_failed")).toHaveLength(125);
  const shuffled = [...made].sort(() => Math.random() - 0.5);
  const insertRows = (rows: typeof made) =>
    lab.db((db) => {
      const insert = db.prepare(
        "insert into audit_events (at, actor_id, actor_email, event, target_type, target_id, target_label, ip, user_agent, request_id, details) values (?, null, null, ?, 'user', null, ?, '10.0.0.9', 'e2e', null, ?)",
      );
      return db.transaction(() =>
        rows.map((row) => ({ ...row, id: Number(insert.run(row.at, row.event, row.label, JSON.stringify({ email: row.label, n: row.n })).lastInsertRowid) })),
      )();
    });
  const inserted = insertRows(shuffled);
  const newestFirst = <T extends { at: number; id: number }>(rows: T[]) => [...rows].sort((x, y) => y.at - x.at || y.id - x.id);
  const expected = newestFirst(inserted.filter((r) => r.event === "auth.sign_in_failed")).map((r) => r.label);

  const page = await lab.adminPage();
  await openActivityFromSidebar(page, jsEnabled);
  await filterBy(page, { event: "auth.sign_in_failed" });
  const p = paging(page);
  const labels = async () => (await shownRows(page)).map((r) => r.target);
  const expectPage = async (rows: string[], { first, last }: { first: boolean; last: boolean }) => {
    await expect.poll(labels, { message: `the rows of ${page.url()}` }).toEqual(rows);
    if (first) await expect(p.previous).toHaveAttribute("aria-disabled", "true");
    else await expect(p.previous).not.toHaveAttribute("aria-disabled");
    if (last) await expect(p.next).toHaveAttribute("aria-disabled", "true");
    else await expect(p.next).not.toHaveAttribute("aria-disabled");
    await expect(p.newest).toHaveCount(first ? 0 : 1);
    // Every page keeps the filter, in its links and its download.
    expect(new URL(page.url()).searchParams.get("event")).toBe("auth.sign_in_failed");
    await expect(downloadLink(page)).toHaveAttribute("href", "/admin/activity.csv?event=auth.sign_in_failed");
  };

  const page1 = expected.slice(0, PAGE_SIZE);
  const page2 = expected.slice(PAGE_SIZE, 2 * PAGE_SIZE);
  const page3 = expected.slice(2 * PAGE_SIZE);
  await expectPage(page1, { first: true, last: false });
  // One line per event: a page of 50 fits in 2,500 px at 1280 px wide.
  expect(await page.evaluate(() => document.documentElement.scrollHeight), "the page's height with 50 events").toBeLessThanOrEqual(2500);
  await p.next.click();
  await expect(page).toHaveURL(/[?&]before=\d+\.\d+/);
  await expectPage(page2, { first: false, last: false });

  // New rows arrive while the admin reads page 2: the pages already walked stay as they were.
  const arrived = insertRows(
    [0, 1, 2].map((i) => ({ n: 200 + i, at: Date.now() - 1000 + i, event: "auth.sign_in_failed", label: `arrived-${tag}-${i}@example.com` })),
  );
  await p.next.click();
  await expectPage(page3, { first: false, last: true });
  expect(page3).toHaveLength(25);
  await p.previous.click();
  await expect(page).toHaveURL(/[?&]after=\d+\.\d+/);
  await expectPage(page2, { first: false, last: false });
  await p.previous.click();
  // 53 rows are newer than page 2 now: page 1 as it was, with a newer page above it.
  await expect.poll(labels).toEqual(page1);
  await expect(p.newest).toBeVisible();
  await p.newest.click();
  await expect(page).toHaveURL((url) => url.pathname === PATH && url.searchParams.get("event") === "auth.sign_in_failed" && !url.searchParams.has("before") && !url.searchParams.has("after"));
  const now = [...newestFirst(arrived).map((r) => r.label), ...expected];
  await expectPage(now.slice(0, PAGE_SIZE), { first: true, last: false });

  // The export is every matching row, not a page, in the same order.
  const href = (await downloadLink(page).getAttribute("href"))!;
  const exported = parseCsv(await (await page.request.get(href)).text());
  expect(exported[0]).toEqual(CSV_HEADER);
  expect(exported.slice(1).map((record) => record[7])).toEqual(now);
});

test("Download CSV: the filtered rows only, formula-safe, and the export is itself recorded", { tag: "@no-js" }, async ({ lab, jsEnabled, clientIp }) => {
  const tag = randomBytes(3).toString("hex");
  // A document whose title a spreadsheet would run, uploaded by the admin; a failed sign-in for an address starting with '-'.
  const title = `=HYPERLINK("https://evil.example","Quarterly report") ${tag}`;
  const adminApi = await lab.adminApi();
  const upload = await uploadDocument(adminApi, { title, category: "reports" }, { name: `formula-${tag}.pdf`, mimeType: MIME.pdf, buffer: samplePdf(`Formula ${tag}`) });
  expect(upload.status(), await upload.text()).toBe(201);
  const doc = (await upload.json()) as LpDocument;
  const uploadRequestId = upload.headers()["x-request-id"];
  const dashEmail = `-sum-${tag}@example.com`;
  const refused = await lab.api.post("/api/auth/login", { data: { email: dashEmail, password: "whatever-it-is" } });
  expect(refused.status()).toBe(401);
  await registerViaApi(lab.api, { email: `other-${tag}@example.com`, password: `pw-${tag}-secret`, name: "Other Investor" });

  const page = await lab.adminPage();
  await openActivityFromSidebar(page, jsEnabled);
  const admin = lab.admin.email.toLowerCase();
  const adminId = lab.db((db) => (db.prepare("select id from lp_users where email = ?").get(admin) as { id: string }).id);

  // The document's row, found by its title typed in capitals (titles match without regard to case).
  await filterBy(page, { target: title.toUpperCase() });
  await expectRows(page, [brief("document.uploaded", admin, title)]);
  const [shown] = await shownRows(page);
  expect(shown!.targetMeta).toBe(`document · ${doc.id}`);
  const [download] = await Promise.all([page.waitForEvent("download"), downloadLink(page).click()]);
  expect(download.suggestedFilename()).toMatch(/^lumen-ridge-activity-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = fs.readFileSync((await download.path())!, "utf8");
  expect(text.startsWith("\uFEFFTime (UTC),Event,Event name,Actor,Actor ID,Target type,Target ID,Target,IP address,User agent,Request ID,Details\r\n")).toBe(true);
  // The cell starts with an apostrophe, so a spreadsheet shows the text and runs nothing.
  expect(text).toContain(`,"'=HYPERLINK(""https://evil.example"",""Quarterly report"") ${tag}",`);
  const records = parseCsv(text);
  expect(records).toHaveLength(2);
  const [time, label, event, actor, actorId, targetType, targetId, target, ip, userAgent, requestId, details] = records[1]!;
  expect(time).toBe(shown!.whenIso.slice(0, 19).replace("T", " "));
  expect([label, event, actor, actorId, targetType, targetId, target, ip]).toEqual([
    LABELS["document.uploaded"],
    "document.uploaded",
    admin,
    adminId,
    "document",
    doc.id,
    `'${title}`,
    clientIp,
  ]);
  expect(userAgent).not.toBe("");
  expect(requestId).toBe(uploadRequestId);
  expect(JSON.parse(details!)).toMatchObject({ documentId: doc.id, category: "reports", mimeType: "application/pdf" });

  // The visitor's failed sign-in with an address a spreadsheet would read as a formula.
  await filterBy(page, { actor: "visitor", target: dashEmail });
  await expectRows(page, [brief("auth.sign_in_failed", TEXT_ACTIVITY.visitor, dashEmail)]);
  const href = (await downloadLink(page).getAttribute("href"))!;
  expect(href).toBe(`/admin/activity.csv?${new URLSearchParams({ actor: "visitor", target: dashEmail })}`);
  const answer = await page.request.get(href);
  expect(answer.status()).toBe(200);
  expect(answer.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(answer.headers()["content-disposition"]).toMatch(/^attachment; filename="lumen-ridge-activity-\d{4}-\d{2}-\d{2}\.csv"$/);
  expect(answer.headers()["cache-control"]).toBe("private, no-store");
  expect(answer.headers()["x-content-type-options"]).toBe("nosniff");
  const dashRecords = parseCsv(await answer.text());
  expect(dashRecords).toHaveLength(2);
  expect(dashRecords[1]!.slice(1, 8)).toEqual([LABELS["auth.sign_in_failed"], "auth.sign_in_failed", TEXT_ACTIVITY.visitor, "", "user", "", `'${dashEmail}`]);

  // Both exports are in the trail now, newest first, with the filters they used.
  await filterBy(page, { event: "audit.exported" });
  await expectRows(page, [brief("audit.exported", admin, "activity"), brief("audit.exported", admin, "activity")]);
  const exports = await shownRows(page);
  expect(exports.map((r) => r.label)).toEqual([LABELS["audit.exported"], LABELS["audit.exported"]]);
  expect(exports[0]!.targetMeta).toBe("audit_trail");
  expect(JSON.parse(exports[0]!.details.filters!)).toEqual({ actor: "visitor", target: dashEmail });
  expect(JSON.parse(exports[1]!.details.filters!)).toEqual({ target: title.toUpperCase() });
  // The request made here carries this test's address; the browser's own download goes out without the test's X-Forwarded-For.
  expect(exports[0]!.from).toBe(clientIp);
  expect(exports[1]!.from).toMatch(/^[\d.:a-f]+$/);

  // Unfiltered: every row of the trail, the export's own row first, then what the page shows.
  await filterForm(page).clear.click();
  await expect(page).toHaveURL((url) => url.pathname === PATH && url.search === "");
  await expect.poll(async () => (await shownRows(page)).length).toBeGreaterThan(0);
  const pageRows = await shownRows(page);
  const everything = parseCsv(await (await page.request.get("/admin/activity.csv")).text());
  expect(everything[1]!.slice(1, 4)).toEqual([LABELS["audit.exported"], "audit.exported", admin]);
  expect(everything.slice(2).map((r) => `${r[2]} | ${r[3]} | ${r[7]}`)).toEqual(
    pageRows.map((r) => `${r.event} | ${r.actor} | ${r.target.startsWith("=") || r.target.startsWith("-") ? `'${r.target}` : r.target}`),
  );
});
