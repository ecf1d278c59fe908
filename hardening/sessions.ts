/**
 * sessions: the session cookie of a production server on an https APP_URL
 * (behind a TLS proxy, as README's deployment describes: TRUST_PROXY=1 and
 * X-Forwarded-Proto), rotation at sign-in, replay after logout, a rejected
 * user's cookie, and the idle/absolute lifetimes. The production server has no
 * clock hook by design, so the lifetimes are the Vitest tests that move the
 * app's clock in-process (tests/integration/auth-sessions.test.ts).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { formBody, ROOT, startServer, Tally, type HttpAnswer, type Section } from "./harness";
import { headerValue, HSTS_MIN_SECONDS, PASSWORD, Portal, sessionPair, setCookies } from "./web-helpers";

const APP_URL = "https://portal.example";
/** What reaches the app from the TLS proxy for a browser on APP_URL. */
const PROXIED = { host: "portal.example", "x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.7" };
const BROWSER = { ...PROXIED, origin: APP_URL, "sec-fetch-site": "same-origin" };
const TWELVE_HOURS = 12 * 60 * 60;

type VitestReport = {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }> }>;
};

/** Run the session tests in-process (fake clock) and read the JSON report. */
function runVitest(outputFile: string): Promise<{ report: VitestReport | null; seconds: number; output: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn("npx", ["vitest", "run", "tests/integration/auth-sessions.test.ts", "--reporter=json", `--outputFile=${outputFile}`], {
      cwd: ROOT,
      env: { ...process.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("close", () => {
      let report: VitestReport | null = null;
      try {
        report = JSON.parse(fs.readFileSync(outputFile, "utf8")) as VitestReport;
      } catch {
        report = null;
      }
      resolve({ report, seconds: (Date.now() - started) / 1000, output });
    });
  });
}

/** The Set-Cookie line of the session cookie, split into lower-cased attributes. */
function sessionCookieLine(answer: HttpAnswer): { name: string; attributes: Map<string, string> } | null {
  const line = setCookies(answer).find((l) => /^(__Host-)?lr_session=[^;]/.test(l));
  if (!line) return null;
  const [pair, ...rest] = line.split(";");
  const attributes = new Map<string, string>();
  for (const attribute of rest) {
    const [key, ...value] = attribute.trim().split("=");
    attributes.set(key!.toLowerCase(), value.join("=").toLowerCase());
  }
  return { name: pair!.split("=")[0]!, attributes };
}

export const section: Section = {
  name: "sessions",
  run: async (ctx) => {
    const t = new Tally();
    // (e) runs beside the rest: it needs no server.
    const vitest = runVitest(path.join(ctx.tmpRoot, "auth-sessions.json"));
    const server = await startServer(ctx, { name: "sessions", env: { APP_URL, TRUST_PROXY: "1" } });
    try {
      const portal = await new Portal(server, BROWSER).init();
      const whoAmI = async (cookie: string) => {
        const answer = await portal.call("GET", "/api/auth/user", undefined, cookie);
        return { status: answer.status, email: answer.status === 200 ? (JSON.parse(answer.text) as { email: string }).email : "" };
      };
      const dashboard = (cookie: string) => portal.call("GET", "/lp/dashboard", undefined, cookie);
      const toLogin = (a: HttpAnswer) => (a.status === 302 || a.status === 303) && headerValue(a, "location").startsWith("/lp/login");

      // ── (a) the cookie in production ─────────────────────────────────────
      const investorA = await portal.investor();
      const login = await portal.call("POST", "/api/auth/login", { headers: { "content-type": "application/json" }, body: JSON.stringify({ email: investorA.email, password: PASSWORD }) });
      const cookie = sessionCookieLine(login);
      const attrs = cookie?.attributes ?? new Map<string, string>();
      const maxAge = attrs.has("max-age") ? Number(attrs.get("max-age")) : NaN;
      const shown = setCookies(login).join(" | ").replace(/=[^;]{12,}/, "=…");
      t.check("cookie name starts __Host-", !!cookie?.name.startsWith("__Host-"), `Set-Cookie: ${shown}`);
      t.check("Secure", attrs.has("secure"), shown);
      t.check("HttpOnly", attrs.has("httponly"), shown);
      t.check("SameSite=Lax", attrs.get("samesite") === "lax", shown);
      t.check("Path=/", attrs.get("path") === "/", shown);
      t.check("no Domain", !attrs.has("domain"), shown);
      t.check("Max-Age ≤ 12 h", maxAge > 0 && maxAge <= TWELVE_HOURS, `Max-Age ${attrs.get("max-age") ?? "missing"}`);
      t.info("Max-Age (s)", Number.isNaN(maxAge) ? "missing" : maxAge);
      const home = await portal.call("GET", "/", undefined, "");
      const hsts = [login, home].map((a) => headerValue(a, "strict-transport-security"));
      t.check(
        "HSTS on the sign-in answer and home page (≥ 1 year)",
        hsts.every((h) => Number(/max-age=(\d+)/.exec(h)?.[1] ?? 0) >= HSTS_MIN_SECONDS),
        `Strict-Transport-Security: ${hsts.map((h) => h || "missing").join(" / ")}`,
      );
      const live = await whoAmI(sessionPair(login));
      t.check("the __Host- cookie signs the user in", live.status === 200 && live.email === investorA.email, `GET /api/auth/user → ${live.status}`);
      // Every cookie the https site sets (session, flash, theme, fund access) must be Secure.
      const cookieAnswers = [
        login,
        await portal.call("POST", "/lp/login", formBody({ email: investorA.email, password: PASSWORD })),
        await portal.call("POST", "/theme", formBody({ theme: "dark", redirectTo: "/" })),
        await portal.call("POST", "/fund-i/signup", formBody({ name: "Fund Visitor", email: `fund-${Date.now()}@example.com` })),
        await portal.call("POST", "/api/auth/logout", { headers: {} }, sessionPair(login)),
      ];
      const lines = cookieAnswers.flatMap(setCookies);
      const insecure = lines.filter((l) => !/;\s*secure\b/i.test(l)).map((l) => l.split("=")[0]);
      t.check(`every cookie set over https is Secure (${lines.length} Set-Cookie lines)`, lines.length >= 5 && insecure.length === 0, `not Secure: ${insecure.join(", ") || "(too few cookies seen)"}`);

      // ── (b) rotation at sign-in ─────────────────────────────────────────
      const investorB = await portal.investor();
      const first = investorB.cookie;
      const second = await portal.signIn(investorB.email, PASSWORD, first);
      const [firstAfter, secondAfter] = [await whoAmI(first), await whoAmI(second)];
      t.check(
        "rotation (API): new cookie ≠ old, old refused",
        second !== "" && second !== first && firstAfter.status === 401 && secondAfter.status === 200,
        `same cookie: ${second === first}, old → ${firstAfter.status}, new → ${secondAfter.status}`,
      );
      // An attacker's own live session planted in the victim's browser before they sign in.
      const planted = (await portal.investor()).cookie;
      const victim = await portal.signIn(investorB.email, PASSWORD, planted);
      const [plantedAfter, victimAfter] = [await whoAmI(planted), await whoAmI(victim)];
      t.check(
        "planted cookie not adopted (victim gets a new one; planted refused)",
        victim !== planted && victimAfter.email === investorB.email && plantedAfter.status === 401,
        `same cookie: ${victim === planted}, victim → ${victimAfter.status} ${victimAfter.email}, planted → ${plantedAfter.status}`,
      );
      const forged = "__Host-lr_session=forged-value";
      const fromForged = await portal.signIn(investorB.email, PASSWORD, forged);
      t.check("forged cookie at sign-in replaced", fromForged !== "" && fromForged !== forged && (await whoAmI(fromForged)).status === 200, `got ${fromForged.slice(0, 30)}`);
      const formLogin = await portal.call("POST", "/lp/login", formBody({ email: investorB.email, password: PASSWORD }), victim);
      const third = sessionPair(formLogin);
      const [victimGone, thirdLive] = [await whoAmI(victim), await whoAmI(third)];
      t.check(
        "rotation (form /lp/login): new cookie ≠ old, old refused",
        (formLogin.status === 302 || formLogin.status === 303) && third !== "" && third !== victim && victimGone.status === 401 && thirdLive.status === 200,
        `form → ${formLogin.status}, same cookie: ${third === victim}, old → ${victimGone.status}, new → ${thirdLive.status}`,
      );

      // ── (c) replay after logout ─────────────────────────────────────────
      const apiSession = await portal.signIn(investorB.email);
      const apiBefore = (await whoAmI(apiSession)).status;
      const apiLogout = await portal.call("POST", "/api/auth/logout", { headers: {} }, apiSession);
      const [apiReplay, apiPage] = [await whoAmI(apiSession), await dashboard(apiSession)];
      t.check(
        "replay after POST /api/auth/logout: 401 and redirect",
        apiBefore === 200 && apiLogout.status === 200 && apiReplay.status === 401 && toLogin(apiPage),
        `before ${apiBefore}, logout ${apiLogout.status}, /api/auth/user ${apiReplay.status}, /lp/dashboard ${apiPage.status} ${headerValue(apiPage, "location")}`,
      );
      const formSession = await portal.signIn(investorB.email);
      const formBefore = (await dashboard(formSession)).status;
      const formLogout = await portal.call("POST", "/logout", formBody({}), formSession);
      const [formReplay, formPage] = [await whoAmI(formSession), await dashboard(formSession)];
      t.check(
        "replay after the /logout form: 401 and redirect",
        formBefore === 200 && (formLogout.status === 302 || formLogout.status === 303) && formReplay.status === 401 && toLogin(formPage),
        `before ${formBefore}, logout ${formLogout.status}, /api/auth/user ${formReplay.status}, /lp/dashboard ${formPage.status} ${headerValue(formPage, "location")}`,
      );

      // ── (d) a rejected user ─────────────────────────────────────────────
      const investorC = await portal.investor();
      const cBefore = (await whoAmI(investorC.cookie)).status;
      await portal.setStatus(investorC.id, "rejected");
      const [cApi, cPage] = [await whoAmI(investorC.cookie), await dashboard(investorC.cookie)];
      t.check(
        "rejected user's cookie refused on the next request",
        cBefore === 200 && (cApi.status === 401 || cApi.status === 403) && toLogin(cPage),
        `before ${cBefore}, after /api/auth/user ${cApi.status}, /lp/dashboard ${cPage.status} ${headerValue(cPage, "location")}`,
      );
      await portal.setStatus(investorC.id, "approved");
      const revived = await whoAmI(investorC.cookie);
      t.check("re-approval does not revive the old cookie", revived.status === 401, `after re-approval /api/auth/user → ${revived.status}`);
      t.count("server crashes", server.unexpectedExits(), 0);
    } finally {
      await server.stop();
    }

    // ── (e) lifetimes, in-process with a fake clock ─────────────────────
    const { report, seconds, output } = await vitest;
    const lifetimes = (report?.testResults ?? []).flatMap((file) => file.assertionResults).filter((a) => a.ancestorTitles.includes("lifetimes"));
    const passed = lifetimes.filter((a) => a.status === "passed").length;
    const failed = lifetimes.filter((a) => a.status === "failed").length;
    if (!report) t.note(`vitest gave no report: ${output.slice(-400)}`);
    t.info("lifetime tests (Vitest, fake clock): passed", passed);
    t.count("lifetime tests failed", failed, 0);
    t.check("lifetime tests passed ≥ 2 (idle 2 h, absolute 12 h)", passed >= 2, `${passed} passed: ${lifetimes.map((a) => a.title).join("; ")}`);
    t.info("auth-sessions.test.ts overall (passed / failed)", `${report?.numPassedTests ?? "?"} / ${report?.numFailedTests ?? "?"} in ${seconds.toFixed(1)} s`);
    return t.result();
  },
};
