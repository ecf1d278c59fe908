/**
 * brute-force: the sign-in and token-check limits trip exactly where
 * app/modules/http/rate-limit.server.ts says (the numbers are imported, not
 * copied), answer 429 with Retry-After, and cannot be reset by a forged
 * X-Forwarded-For. Two servers: one without TRUST_PROXY (the header must be
 * ignored; separate clients are separate local source addresses), one with
 * TRUST_PROXY=1 (the harness connects over loopback, the trusted proxy: the last
 * hop is the client, a new hop a new client for the per-address limits, but the
 * per-account limit still holds).
 *
 * Bursts (DESIGN.md §4: an attempt reserves its place before bcrypt): 40 wrong
 * passwords for one account sent at once, and 40 sign-ins from 40 addresses of
 * one IPv6 /64 (X-Forwarded-For through the trusted proxy: this machine cannot
 * bind them). A 401 is an attempt that reached bcrypt, a 429 one refused before.
 */
import { RATE_LIMITS } from "../app/modules/http/rate-limit.server";
import { confirmRegistration, PRODUCTION_PASSWORD_COST, formBody, jsonBody, startServer, Tally, type AppServer, type HttpAnswer, type Section } from "./harness";
import { PASSWORD, retryAfterSeconds, send, unique, type Body } from "./web-helpers";

/**
 * The sign-in page's form as it posts with JavaScript (`_enhanced=1`): answered with its status (401, 429 and
 * Retry-After). Without JavaScript every answer is a 303 back to the page with the message in a flash (decision 010).
 */
const pageForm = (fields: Record<string, string>) => formBody({ ...fields, _enhanced: "1" });

type Attempt = (i: number) => Promise<HttpAnswer>;

const randomHop = () => `192.0.2.${1 + Math.floor(Math.random() * 250)}`;
const guessLogin = (i: number) => ({ email: `guess-${i}-${unique()}@example.com`, password: `wrong-password-${i}` });
const token = () => `${unique()}${unique()}${unique()}${unique()}`;

/**
 * Attempts 1..expected+2 (stopping at the first 429): where the first 429
 * came, whether every earlier answer had the usual status, and the 429 itself.
 */
async function tripAt(attempt: Attempt, expected: number, usual: number[]) {
  const unusual: string[] = [];
  for (let i = 1; i <= expected + 2; i++) {
    const answer = await attempt(i);
    if (answer.status === 429) return { first: i, answer, unusual };
    if (!usual.includes(answer.status)) unusual.push(`#${i} → ${answer.status}`);
  }
  return { first: -1, answer: null, unusual };
}

/** Record a trip: the attempt number against the expected one, and its Retry-After. */
async function recordTrip(t: Tally, label: string, bucket: keyof typeof RATE_LIMITS, attempt: Attempt, usual: number[]) {
  const expected = RATE_LIMITS[bucket].points + 1;
  const { first, answer, unusual } = await tripAt(attempt, expected, usual);
  t.count(`${label}: first 429 at attempt`, first, expected, unusual.length ? `earlier answers: ${unusual.slice(0, 5).join(", ")}` : undefined);
  if (unusual.length) t.failures.push(`${label}: attempts before the limit answered unexpectedly (${unusual.slice(0, 5).join(", ")})`);
  const retry = answer ? retryAfterSeconds(answer) : NaN;
  t.check(
    `${label}: Retry-After on the 429 (1..${RATE_LIMITS[bucket].duration} s)`,
    retry >= 1 && retry <= RATE_LIMITS[bucket].duration,
    `Retry-After: ${answer ? JSON.stringify(answer.headers["retry-after"] ?? null) : "no 429"}`,
  );
}

/** Each of `attempts` must (or must not) be a 429; returns the ones that broke the rule. */
async function expectAll(attempts: Array<[string, () => Promise<HttpAnswer>]>, limited: boolean): Promise<string[]> {
  const wrong: string[] = [];
  for (const [name, go] of attempts) {
    const answer = await go();
    if ((answer.status === 429) !== limited) wrong.push(`${name} → ${answer.status}`);
  }
  return wrong;
}

function client(server: AppServer, from: { localAddress?: string; hop?: string; timeoutMs?: number }) {
  return (method: string, path: string, body: Body = { headers: {} }, extra: Record<string, string> = {}) =>
    send(server.url, method, path, {
      headers: { ...body.headers, ...(from.hop ? { "x-forwarded-for": from.hop } : {}), ...extra },
      body: body.body,
      localAddress: from.localAddress,
      ...(from.timeoutMs ? { timeoutMs: from.timeoutMs } : {}),
    });
}

/** Without TRUST_PROXY: X-Forwarded-For is ignored; clients are local source addresses. */
async function withoutProxy(server: AppServer, full: boolean): Promise<Tally> {
  const t = new Tally();
  const rotations = 3;

  // Sign-in page form, real wrong guesses from one address; then the same address with forged X-Forwarded-For.
  const form = client(server, { localAddress: "127.0.0.31" });
  await recordTrip(t, "no proxy · login page form /lp/login (per address)", "login", (i) => form("POST", "/lp/login", pageForm(guessLogin(i))), [401]);
  const rotated = await expectAll(
    [
      ...Array.from({ length: rotations }, (_, i): [string, () => Promise<HttpAnswer>] => [
        `form, X-Forwarded-For #${i + 1}`,
        () => form("POST", "/lp/login", pageForm(guessLogin(100 + i)), { "x-forwarded-for": randomHop() }),
      ]),
      ["API, X-Forwarded-For", () => form("POST", "/api/auth/login", jsonBody(guessLogin(200)), { "x-forwarded-for": randomHop() })],
    ],
    true,
  );
  t.count("no proxy · login: rotated X-Forwarded-For not refused", rotated.length, 0, rotated.join(", "));
  if (full) {
    const api = client(server, { localAddress: "127.0.0.32" });
    await recordTrip(t, "no proxy · login API, real guesses (per address)", "login", (i) => api("POST", "/api/auth/login", jsonBody(guessLogin(i))), [401]);
  }

  // Fund token check (API), then the page with ?token= from the same address (one bucket).
  const tokens = client(server, { localAddress: "127.0.0.33" });
  await recordTrip(t, "no proxy · token check API", "tokenCheck", () => tokens("POST", "/api/fund-access/validate-token", jsonBody({ token: token() })), [200]);
  const tokenRotated = await expectAll(
    [
      ...Array.from({ length: rotations }, (_, i): [string, () => Promise<HttpAnswer>] => [
        `API, X-Forwarded-For #${i + 1}`,
        () => tokens("POST", "/api/fund-access/validate-token", jsonBody({ token: token() }), { "x-forwarded-for": randomHop() }),
      ]),
      ["page /fund-ii/documents?token=, X-Forwarded-For", () => tokens("GET", `/fund-ii/documents?token=${token()}`, undefined, { "x-forwarded-for": randomHop() })],
    ],
    true,
  );
  t.count("no proxy · token check: rotated X-Forwarded-For not refused", tokenRotated.length, 0, tokenRotated.join(", "));

  // The page routes on their own addresses.
  const page = client(server, { localAddress: "127.0.0.34" });
  await recordTrip(t, "no proxy · token page /fund-ii/documents?token=", "tokenCheck", () => page("GET", `/fund-ii/documents?token=${token()}`), [403]);
  return t;
}

/** With TRUST_PROXY=1: the last X-Forwarded-For hop is the client. */
async function withProxy(server: AppServer, full: boolean): Promise<Tally> {
  const t = new Tally();
  const hop = (address: string) => client(server, { hop: address });

  // Sign-in API: the limit comes before the body is read, so attempts without a password count
  // too (and cost no bcrypt hash); then the same client and new clients.
  const tripped = "198.51.100.21";
  await recordTrip(
    t,
    "proxy · login API, no-password attempts (per client)",
    "login",
    (i) => hop(tripped)("POST", "/api/auth/login", jsonBody({ email: guessLogin(i).email, password: "" })),
    [400],
  );
  const sameClient = await expectAll(
    [
      ["page form, same client", () => hop(tripped)("POST", "/lp/login", pageForm(guessLogin(300)))],
      // The client forges a first hop; the proxy appends the real address.
      ["API, forged first hop", () => hop(`203.0.113.99, ${tripped}`)("POST", "/api/auth/login", jsonBody(guessLogin(301)))],
    ],
    true,
  );
  t.count("proxy · login: same client (page form, forged first hop) not refused", sameClient.length, 0, sameClient.join(", "));
  const newClient = await expectAll(
    [
      ["page form, new hop", () => hop("198.51.100.22")("POST", "/lp/login", pageForm(guessLogin(302)))],
      ["API, new hop", () => hop("198.51.100.23")("POST", "/api/auth/login", jsonBody({ email: guessLogin(303).email, password: "" }))],
    ],
    false,
  );
  t.count("proxy · login: new X-Forwarded-For hop still refused (should be a new client)", newClient.length, 0, newClient.join(", "));
  if (full) {
    await recordTrip(t, "proxy · login page form, real guesses (per client)", "login", (i) => hop("198.51.100.24")("POST", "/lp/login", pageForm(guessLogin(i))), [401]);
  }

  // Per account: wrong passwords for one registered account, from a new hop each time. The account
  // (address confirmed) is still pending review: its right password answers 403 until locked, then 429.
  const victim = `victim-${unique()}@example.com`;
  const registered = await hop("198.51.100.50")("POST", "/api/auth/register", jsonBody({ email: victim, password: PASSWORD, name: "Victim" }));
  if (registered.status !== 201) throw new Error(`register ${victim}: ${registered.status} ${registered.text.slice(0, 200)}`);
  await confirmRegistration(server, victim, PASSWORD, (path, body) => hop("198.51.100.50")("POST", path, body));
  let n = 0;
  const freshHop = () => hop(`198.51.101.${++n}`);
  await recordTrip(
    t,
    "proxy · login per account (new hop each attempt)",
    "loginAccount",
    (i) => freshHop()("POST", "/api/auth/login", jsonBody({ email: victim, password: `wrong-${i}` })),
    [401],
  );
  const held = await expectAll(
    [
      ["right password, new hop", () => freshHop()("POST", "/api/auth/login", jsonBody({ email: victim, password: PASSWORD }))],
      ["upper-case e-mail, new hop", () => freshHop()("POST", "/api/auth/login", jsonBody({ email: victim.toUpperCase(), password: PASSWORD }))],
      ["page form, right password, new hop", () => freshHop()("POST", "/lp/login", pageForm({ email: victim, password: PASSWORD }))],
    ],
    true,
  );
  t.count("proxy · locked account: attempts let through", held.length, 0, held.join(", "));
  const other = await freshHop()("POST", "/api/auth/login", jsonBody(guessLogin(400)));
  t.check("proxy · other accounts unaffected by the lock", other.status === 401, `another account's sign-in → ${other.status} (expected 401)`);

  // Token check: the page with ?token=, then the API from the same and a new client.
  const tokenClient = "198.51.100.40";
  await recordTrip(t, "proxy · token page /fund-ii/documents?token= (per client)", "tokenCheck", () => hop(tokenClient)("GET", `/fund-ii/documents?token=${token()}`), [403]);
  const tokenSame = await expectAll(
    [
      ["API, same client", () => hop(tokenClient)("POST", "/api/fund-access/validate-token", jsonBody({ token: token() }))],
      ["page, forged first hop", () => hop(`203.0.113.98, ${tokenClient}`)("GET", `/fund-ii/documents?token=${token()}`)],
    ],
    true,
  );
  t.count("proxy · token check: same client not refused", tokenSame.length, 0, tokenSame.join(", "));
  const tokenNew = await expectAll(
    [
      ["page, new hop", () => hop("198.51.100.41")("GET", `/fund-ii/documents?token=${token()}`)],
      ["API, new hop", () => hop("198.51.100.42")("POST", "/api/fund-access/validate-token", jsonBody({ token: token() }))],
    ],
    false,
  );
  t.count("proxy · token check: new hop still refused (should be a new client)", tokenNew.length, 0, tokenNew.join(", "));
  if (full) {
    await recordTrip(t, "proxy · token check API (per client)", "tokenCheck", () => hop("198.51.100.43")("POST", "/api/fund-access/validate-token", jsonBody({ token: token() })), [200]);
  }
  return t;
}

/** Send every attempt at once (each on its own connection); the statuses, counted. */
async function burst(attempts: Array<() => Promise<HttpAnswer>>): Promise<{ reached: number; refused: number; other: string[]; retry: number[] }> {
  const answers = await Promise.all(attempts.map((go) => go()));
  const other = answers.filter((a) => a.status !== 401 && a.status !== 429).map((a) => `${a.status} ${a.text.slice(0, 80)}`);
  return {
    reached: answers.filter((a) => a.status === 401).length,
    refused: answers.filter((a) => a.status === 429).length,
    other,
    retry: answers.filter((a) => a.status === 429).map(retryAfterSeconds),
  };
}

/** Parallel guesses: at most the configured number reach bcrypt, the rest get 429 (with Retry-After). */
async function bursts(server: AppServer): Promise<Tally> {
  const t = new Tally();
  const size = 40;
  // 40 bcrypt hashes queue behind each other on a loaded machine: patience, not a figure.
  const hop = (address: string) => client(server, { hop: address, timeoutMs: 300_000 });

  // One account, 40 wrong passwords at once, each from an address of its own (only the account's limit applies).
  const victim = `burst-${unique()}@example.com`;
  const registered = await hop("198.51.102.1")("POST", "/api/auth/register", jsonBody({ email: victim, password: PASSWORD, name: "Burst Victim" }));
  if (registered.status !== 201) throw new Error(`register ${victim}: ${registered.status} ${registered.text.slice(0, 200)}`);
  const account = await burst(
    Array.from({ length: size }, (_, i) => () => hop(`198.51.103.${i + 1}`)("POST", "/api/auth/login", jsonBody({ email: victim, password: `wrong-burst-${i}` }))),
  );
  const perAccount = RATE_LIMITS.loginAccount.points;
  t.atMost(`burst · ${size} wrong passwords for one account at once: reached bcrypt (401)`, account.reached, perAccount);
  t.count(`burst · one account: refused before bcrypt (429)`, account.refused, size - perAccount);
  t.count("burst · one account: answers other than 401/429", account.other.length, 0, account.other.slice(0, 3).join("; "));
  t.check(
    "burst · one account: every 429 has a Retry-After",
    account.retry.every((s) => s >= 1 && s <= RATE_LIMITS.loginAccount.duration),
    `Retry-After values: ${[...new Set(account.retry)].join(", ")}`,
  );

  // One IPv6 /64, 40 addresses in it, 40 different accounts at once (only the per-address limit applies).
  const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:7`;
  const block = await burst(
    Array.from({ length: size }, (_, i) => () => hop(`${prefix}::${(i + 1).toString(16)}`)("POST", "/api/auth/login", jsonBody(guessLogin(500 + i)))),
  );
  const perAddress = RATE_LIMITS.login.points;
  t.atMost(`burst · ${size} sign-ins from ${size} addresses of one IPv6 /64 at once: reached bcrypt (401)`, block.reached, perAddress);
  t.count(`burst · one /64: refused before bcrypt (429)`, block.refused, size - perAddress);
  t.count("burst · one /64: answers other than 401/429", block.other.length, 0, block.other.slice(0, 3).join("; "));
  const neighbour = await hop(`${prefix.replace(/:7$/, ":8")}::1`)("POST", "/api/auth/login", jsonBody(guessLogin(600)));
  t.check("burst · the next /64 is another client (not refused)", neighbour.status === 401, `sign-in from the next /64 → ${neighbour.status} (expected 401)`);
  return t;
}

export const section: Section = {
  name: "brute-force",
  run: async (ctx) => {
    const t = new Tally();
    const [plain, proxied] = await Promise.all([
      // The production password cost (12): what a guesser pays per attempt is the point here.
      startServer(ctx, { name: "brute-no-proxy", env: PRODUCTION_PASSWORD_COST }),
      startServer(ctx, { name: "brute-proxy", env: { TRUST_PROXY: "1", ...PRODUCTION_PASSWORD_COST } }),
    ]);
    try {
      // The two servers are independent: run their halves side by side.
      const [a, b] = await Promise.all([withoutProxy(plain, ctx.full), withProxy(proxied, ctx.full)]);
      // Alone: 40 bcrypt hashes at once would slow the sequential trips above.
      const c = await bursts(proxied);
      for (const part of [a, b, c]) {
        t.figures.push(...part.figures);
        t.failures.push(...part.failures);
        t.notes.push(...part.notes);
      }
      const limited = [plain, proxied].flatMap((s) => s.logLines()).filter((l) => l.includes('"request.rate_limited"')).length;
      t.info("429s logged as request.rate_limited", limited);
      t.count("server crashes", plain.unexpectedExits() + proxied.unexpectedExits(), 0);
      if (!ctx.full) t.note("--full also trips the API sign-in with real guesses (no proxy), the page form with real guesses and the token API (proxy), each on a client of its own");
    } finally {
      await Promise.all([plain.stop(), proxied.stop()]);
    }
    return t.result();
  },
};
