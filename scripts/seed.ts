import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import { parseArgs } from "node:util";
import { getEnv } from "../app/modules/config/env.server";
import { hashPassword } from "../app/modules/lp-users/password.server";
import { closeDb, getDb } from "../app/modules/db/connection.server";

/**
 * Fake data for the admin e-mail lists (and for trying the dashboard at scale):
 *
 *   npm run db:seed -- --subscribers 100000 --lp-users 10000 [--fund-requests N] [--force]
 *
 * Writes into DATABASE_PATH (migrations apply first, through getDb). Addresses
 * are numbered and unique (subscriber-000001@example.com, lp-user-00001@…,
 * fund-ii-request-00001@…), so running it again adds nothing twice: rows whose
 * address is already there are skipped. Names and companies vary in case, some
 * have accents, about a fifth of LP users have no company; sign-up dates
 * spread over the last three years in insertion order, as real ones are.
 * Seeded LP users cannot sign in (their password is a random one nobody
 * knows). One transaction, prepared statements: 100,000 rows take about a
 * second. Refuses NODE_ENV=production unless --force.
 */

if (fs.existsSync(".env")) process.loadEnvFile(".env");

const USAGE = "Usage: npm run db:seed -- [--subscribers N] [--lp-users N] [--fund-requests N] [--force]";

const { values } = parseArgs({
  options: {
    subscribers: { type: "string", default: "1000" },
    "lp-users": { type: "string", default: "200" },
    "fund-requests": { type: "string", default: "100" },
    force: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function countArg(name: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 10_000_000) {
    console.error(`--${name} must be a whole number from 0 to 10,000,000 (got ${JSON.stringify(raw)})\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

const wanted = {
  subscribers: countArg("subscribers", values.subscribers),
  lpUsers: countArg("lp-users", values["lp-users"]),
  fundRequests: countArg("fund-requests", values["fund-requests"]),
};

if (process.env.NODE_ENV === "production" && !values.force) {
  console.error("Refusing to seed fake data with NODE_ENV=production (pass --force if you really mean it).");
  process.exit(1);
}

// A small deterministic generator, so two runs with the same counts make the same data.
let state = 0x2545f491;
function random(): number {
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 0x1_0000_0000;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const FIRST = [
  "Ada", "alan", "Grace", "Katherine", "Zoë", "Søren", "José", "Émile", "ingrid", "Mei", "Ravi", "Nkechi",
  "Olivia", "LIAM", "Noah", "Amara", "Hiroshi", "Fatima", "Lars", "Chiara", "Mateo", "Priya", "Yusuf", "Aoife",
];
const LAST = [
  "Lovelace", "turing", "Hopper", "Johnson", "Müller", "Kierkegaard", "García", "Durand", "Bergman", "Chen",
  "Patel", "Okafor", "de la Cruz", "McDonald", "van Dijk", "O'Brien", "SMITH", "Tanaka", "Haddad", "Nilsson",
];
const COMPANIES = [
  "Acme Robotics", "acme robotics", "ACME Robotics", "Northwind Capital", "Photon Labs", "photon labs",
  "Quantum Harbor", "Øresund Ventures", "Blue Fjord AG", "Cobalt & Co", "Helix Bio", "Zephyr Materials",
  "Ångström Optics", "Red Cedar Partners", "Family Office Meyer", "Lattice Semi", "Gridline Energy",
];

const SPAN = 3 * 365 * 24 * 60 * 60 * 1000;
const nowMs = Date.now();
/**
 * When the i-th of n rows signed up: spread over the last three years, later
 * for later rows (as real sign-ups arrive), with a random gap between them.
 */
const signUpTime = (i: number, n: number) => nowMs - SPAN + Math.floor(((i - 1 + random() * 0.9) * SPAN) / n);
const pad = (n: number, width: number) => String(n).padStart(width, "0");

const db = getDb();
const sqlite = db.$client;

// Seeded subscribers are confirmed (what the admin's newsletter list shows by default; double opt-in, issue 16).
const insertSubscriber = sqlite.prepare(
  "INSERT INTO newsletter_subscribers (id, email, created_at, status, confirmed_at, consent_version) VALUES (?, ?, ?, 'confirmed', ?, 'seed') ON CONFLICT DO NOTHING",
);
// Seeded accounts stand for confirmed registrations: the address proved when the account was made (decision 028).
const insertLpUser = sqlite.prepare(
  `INSERT INTO lp_users (id, email, password_hash, name, company, is_admin, status, created_at, confirmed_at)
   VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT DO NOTHING`,
);
const insertFundRequest = sqlite.prepare(
  `INSERT INTO fund_access_users (id, email, name, company, phone, fund_id, accredited_confirmation, access_token_hash, created_at)
   VALUES (?, ?, ?, NULL, NULL, 'fund-ii', ?, ?, ?) ON CONFLICT DO NOTHING`,
);

// Nobody knows this password: seeded users exist to be listed, not to sign in.
const passwordHash = wanted.lpUsers > 0 ? await hashPassword(randomBytes(24).toString("base64url")) : "";

const started = performance.now();

const inserted = sqlite.transaction(() => {
  let subscribers = 0;
  let lpUsers = 0;
  let fundRequests = 0;
  for (let i = 1; i <= wanted.subscribers; i++) {
    const at = signUpTime(i, wanted.subscribers);
    subscribers += insertSubscriber.run(randomUUID(), `subscriber-${pad(i, 6)}@example.com`, at, at).changes;
  }
  for (let i = 1; i <= wanted.lpUsers; i++) {
    const roll = random();
    const status = roll < 0.6 ? "approved" : roll < 0.85 ? "pending" : "rejected";
    const company = random() < 0.2 ? null : pick(COMPANIES);
    const at = signUpTime(i, wanted.lpUsers);
    lpUsers += insertLpUser.run(randomUUID(), `lp-user-${pad(i, 5)}@example.com`, passwordHash, `${pick(FIRST)} ${pick(LAST)}`, company, status, at, at).changes;
  }
  for (let i = 1; i <= wanted.fundRequests; i++) {
    fundRequests += insertFundRequest.run(
      randomUUID(),
      `fund-ii-request-${pad(i, 5)}@example.com`,
      `${pick(FIRST)} ${pick(LAST)}`,
      random() < 0.9 ? 1 : 0,
      // Stands in for the SHA-256 of an access token nobody has.
      createHash("sha256").update(randomBytes(32)).digest("hex"),
      signUpTime(i, wanted.fundRequests),
    ).changes;
  }
  return { subscribers, lpUsers, fundRequests };
})();

const totals = {
  subscribers: (sqlite.prepare("SELECT count(*) AS n FROM newsletter_subscribers").get() as { n: number }).n,
  lpUsers: (sqlite.prepare("SELECT count(*) AS n FROM lp_users WHERE is_admin = 0").get() as { n: number }).n,
  fundRequests: (sqlite.prepare("SELECT count(*) AS n FROM fund_access_users WHERE fund_id = 'fund-ii'").get() as { n: number }).n,
};
const ms = Math.round(performance.now() - started);
closeDb();

const line = (label: string, key: keyof typeof wanted) =>
  `  ${label.padEnd(24)} +${inserted[key]} of ${wanted[key]} asked (${wanted[key] - inserted[key]} already there); ${totals[key]} in all`;
console.log(
  [
    `Seeded ${getEnv().DATABASE_PATH} in ${ms} ms:`,
    line("newsletter subscribers", "subscribers"),
    line("LP users (non-admin)", "lpUsers"),
    line("Fund II access requests", "fundRequests"),
  ].join("\n"),
);
