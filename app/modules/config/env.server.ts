import path from "node:path";
import proxyaddr from "proxy-addr";
import { z } from "~/modules/validation/z";

/**
 * The environment, parsed once at start. A bad or missing required value
 * stops the server with a message naming the variable (see `loadEnv`).
 */
const DEV_SESSION_SECRET = "dev-only-session-secret-change-me-0123456789";

/** What is wrong with a SESSION_SECRET value, if anything. */
function sessionSecretProblem(secret: string | undefined, nodeEnv: string | undefined): string | null {
  if (!secret) {
    return nodeEnv === "production"
      ? "SESSION_SECRET is required in production (at least 32 characters; try `openssl rand -hex 32`)"
      : null;
  }
  return secret.length < 32 ? "SESSION_SECRET must be at least 32 characters long" : null;
}

/** TRUST_PROXY=1: a proxy on the same machine (nginx, Caddy), the loopback addresses only. */
export const LOOPBACK_PROXIES = ["127.0.0.0/8", "::1/128"] as const;

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For, X-Forwarded-Proto and
 * X-Request-Id count (decision 030). Empty, `0` or `false`: none. `1` or
 * `true`: loopback. Otherwise a comma-separated list of addresses and CIDR
 * ranges (IPv4 and IPv6), each checked as proxy-addr reads it.
 */
const trustedProxies = z
  .string()
  .optional()
  .transform((value, ctx): string[] => {
    const raw = (value ?? "").trim();
    if (raw === "" || raw === "0" || raw === "false") return [];
    if (raw === "1" || raw === "true") return [...LOOPBACK_PROXIES];
    const list = raw.split(",").map((entry) => entry.trim());
    for (const entry of list) {
      try {
        if (entry === "") throw new Error("empty");
        proxyaddr.compile(entry);
      } catch {
        ctx.addIssue({
          code: "custom",
          message: `${JSON.stringify(entry)} is not an IP address or CIDR range (use 1 for a proxy on this machine, 0 for none, or a list such as 10.0.0.5,192.168.0.0/16)`,
        });
        return z.NEVER;
      }
    }
    return list;
  });

/**
 * Continuous replication with Litestream (issue 26, decision 042). These are read by
 * `npm run db:replicate`, `npm run db:restore -- --from-replica` and `npm run drill`, which
 * feed them to deploy/litestream.yml, and by the server: with LITESTREAM_REPLICA_URL set it
 * leaves checkpoints to Litestream and /readyz reports the replication lag.
 */
const REPLICA_SCHEMES = ["file:", "s3:", "sftp:", "gcs:", "abs:"];
/** A value substituted into the YAML template between double quotes: nothing that would end or escape the string. */
const YAML_SAFE = /^[^"\\\n\r]*$/;
const replicaUrl = z
  .string()
  .optional()
  .superRefine((value, ctx) => {
    if (value === undefined) return;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "LITESTREAM_REPLICA_URL must be a URL such as s3://bucket/lumen-ridge, sftp://user@host/path or file:///var/backups/lumen-ridge/replica" });
      return;
    }
    if (!REPLICA_SCHEMES.includes(url.protocol)) {
      ctx.addIssue({ code: "custom", message: `LITESTREAM_REPLICA_URL: ${url.protocol.replace(/:$/, "")}:// is not a Litestream replica (use s3://, sftp://, file://, gcs:// or abs://)` });
    } else if (url.protocol === "file:" && (url.host !== "" || url.pathname === "/")) {
      ctx.addIssue({ code: "custom", message: "LITESTREAM_REPLICA_URL: a local replica is file:// and an absolute folder, e.g. file:///var/backups/lumen-ridge/replica" });
    } else if (!YAML_SAFE.test(value)) {
      ctx.addIssue({ code: "custom", message: "LITESTREAM_REPLICA_URL must not contain quotes, backslashes or line breaks (percent-encode them)" });
    }
  });
/** A Go duration as Litestream reads it: 250ms, 1s, 24h, 1h30m. */
const goDuration = (name: string, fallback: string) =>
  z
    .string()
    .regex(/^(\d+(\.\d+)?(ms|s|m|h))+$/, { message: `${name} must be a duration such as 250ms, 1s, 10m or 24h` })
    .default(fallback);
const yamlSafe = (name: string) => z.string().regex(YAML_SAFE, { message: `${name} must not contain quotes, backslashes or line breaks` }).optional();

/** Hosts that only this machine reaches. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);
/** Is this URL on this machine only (where TEST_BCRYPT_COST is allowed)? */
export const isLoopbackUrl = (url: string) => LOOPBACK_HOSTS.has(new URL(url).hostname);
const TEST_COST_RANGE = "TEST_BCRYPT_COST must be a whole number from 4 to 11";
const TEST_COST_PROBLEM = "TEST_BCRYPT_COST is for test servers only: it needs an APP_URL on this machine (http://localhost:…); unset it on a real server";

export const envSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("127.0.0.1"),
    APP_URL: z
      .url({ message: "APP_URL must be an absolute URL such as https://example.com" })
      .default("http://localhost:3000")
      .transform((v) => v.replace(/\/+$/, "")),
    DATABASE_PATH: z.string().min(1).default("storage/data.sqlite"),
    STORAGE_DIR: z.string().min(1).default("storage/uploads"),
    SESSION_SECRET: z.string().optional(),
    SMTP_URL: z
      .string()
      .optional()
      .refine((v) => !v || /^smtps?:\/\//.test(v), "SMTP_URL must start with smtp:// or smtps://"),
    MAIL_FROM: z.string().min(3).default("Lumen Ridge Ventures <no-reply@lumenridge.example>"),
    FIRM_INBOX: z.email({ message: "FIRM_INBOX must be an e-mail address" }).default("hello@lumenridge.example"),
    /** The reverse proxies in front of the app whose X-Forwarded-* headers count; [] for none. */
    TRUST_PROXY: trustedProxies,
    /** Log level: "silent" turns request logs off (used by tests and the benchmark). */
    LOG_LEVEL: z.enum(["info", "silent"]).default("info"),
    /**
     * Keys that seal TOTP secrets at rest, comma-separated, each at least 32
     * characters: the first seals, every one opens (rotation: put the new key first).
     * Unset: SESSION_SECRET is the one key.
     */
    TOTP_KEYS: z
      .string()
      .optional()
      .refine((v) => !v || v.split(",").every((key) => key.trim().length >= 32), "TOTP_KEYS: each key must be at least 32 characters long"),
    /** Audit rows older than this many days are deleted once a day (at least 30: the table refuses younger deletes). */
    AUDIT_RETENTION_DAYS: z.coerce
      .number({ message: "AUDIT_RETENTION_DAYS must be a whole number of days" })
      .int({ message: "AUDIT_RETENTION_DAYS must be a whole number of days" })
      .min(30, { message: "AUDIT_RETENTION_DAYS must be at least 30" })
      .default(730),
    /** The outbox sends at most this many mails a minute, so a publish to hundreds of investors stays within the SMTP provider's limits. */
    MAIL_RATE_PER_MINUTE: z.coerce
      .number({ message: "MAIL_RATE_PER_MINUTE must be a whole number" })
      .int({ message: "MAIL_RATE_PER_MINUTE must be a whole number" })
      .min(1, { message: "MAIL_RATE_PER_MINUTE must be at least 1" })
      .default(60),
    /** The new-document e-mail choice a newly registered investor starts with (each: the product's default). */
    DOCUMENT_MAIL_DEFAULT: z.enum(["each", "weekly", "none"], { message: "DOCUMENT_MAIL_DEFAULT must be each, weekly or none" }).default("each"),
    /**
     * The hour (Europe/Zurich, 0–23) the daily pitch summary goes to FIRM_INBOX: 8 (08:00) as the
     * issue asks. The hardening run sets an hour already past to see two processes send it once.
     */
    PITCH_SUMMARY_HOUR: z.coerce
      .number({ message: "PITCH_SUMMARY_HOUR must be a whole hour from 0 to 23" })
      .int({ message: "PITCH_SUMMARY_HOUR must be a whole hour from 0 to 23" })
      .min(0, { message: "PITCH_SUMMARY_HOUR must be a whole hour from 0 to 23" })
      .max(23, { message: "PITCH_SUMMARY_HOUR must be a whole hour from 0 to 23" })
      .default(8),
    /** How many PDF watermarks are stamped at once (each in its own process); more requests wait in a bounded queue. */
    WATERMARK_CONCURRENCY: z.coerce
      .number({ message: "WATERMARK_CONCURRENCY must be a whole number" })
      .int({ message: "WATERMARK_CONCURRENCY must be a whole number" })
      .min(1, { message: "WATERMARK_CONCURRENCY must be at least 1" })
      .max(16, { message: "WATERMARK_CONCURRENCY must be at most 16" })
      .default(1),
    /** A pitch form posted sooner than this many seconds after the page was rendered is treated as spam (decision 026). */
    PITCH_MIN_FILL_SECONDS: z.coerce
      .number({ message: "PITCH_MIN_FILL_SECONDS must be a number of seconds" })
      .min(0, { message: "PITCH_MIN_FILL_SECONDS must be at least 0" })
      .max(600, { message: "PITCH_MIN_FILL_SECONDS must be at most 600" })
      .default(3),
    /** Where Litestream replicates DATABASE_PATH; unset: replication off (decision 042). */
    LITESTREAM_REPLICA_URL: replicaUrl,
    /** Litestream's Prometheus endpoint (host:port, loopback by default), which /readyz reads the lag from; `off` for none. */
    LITESTREAM_METRICS_ADDR: z
      .string()
      .regex(/^(off|(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]*):\d{1,5})$/, { message: "LITESTREAM_METRICS_ADDR must be host:port (e.g. 127.0.0.1:9090) or off" })
      .default("127.0.0.1:9090"),
    /** How often Litestream uploads new WAL frames: the replica's point-in-time resolution and about its RPO. */
    LITESTREAM_SYNC_INTERVAL: goDuration("LITESTREAM_SYNC_INTERVAL", "1s"),
    /** How often Litestream copies the database's WAL to its shadow WAL. */
    LITESTREAM_MONITOR_INTERVAL: goDuration("LITESTREAM_MONITOR_INTERVAL", "1s"),
    /** A full snapshot this often (a restore replays the WAL since the last one). */
    LITESTREAM_SNAPSHOT_INTERVAL: goDuration("LITESTREAM_SNAPSHOT_INTERVAL", "24h"),
    /** How far back a point-in-time restore reaches (older snapshots and WAL are deleted). */
    LITESTREAM_RETENTION: goDuration("LITESTREAM_RETENTION", "168h"),
    /** S3-compatible services other than AWS (R2, MinIO, …): the endpoint URL; B2 and a few others are read from the bucket's host name. */
    LITESTREAM_ENDPOINT: yamlSafe("LITESTREAM_ENDPOINT").refine((v) => !v || /^https?:\/\/[^\s/]+/.test(v), "LITESTREAM_ENDPOINT must be an http(s) URL such as https://<account>.r2.cloudflarestorage.com"),
    /** The bucket's region (AWS; R2 takes auto). */
    LITESTREAM_REGION: yamlSafe("LITESTREAM_REGION"),
    /** SFTP replicas: the private key file (the password, if any, goes in the URL). */
    LITESTREAM_SFTP_KEY_PATH: yamlSafe("LITESTREAM_SFTP_KEY_PATH").refine((v) => !v || path.isAbsolute(v), "LITESTREAM_SFTP_KEY_PATH must be an absolute path"),
    /** The Litestream config template (default deploy/litestream.yml of the checkout). */
    LITESTREAM_CONFIG: z.string().min(1).optional(),
    /** The Litestream binary (default: the one @flydotio/litestream installs for this platform). */
    LITESTREAM_BIN: z.string().min(1).optional(),
    /**
     * Test servers only (decision 036): new password hashes at this bcrypt cost (4–11) instead of
     * 12, so suites that create hundreds of accounts do not spend minutes hashing. Refused unless
     * APP_URL is a loopback address: a server others can reach always hashes at 12.
     */
    TEST_BCRYPT_COST: z.coerce
      .number({ message: TEST_COST_RANGE })
      .int({ message: TEST_COST_RANGE })
      .min(4, { message: TEST_COST_RANGE })
      .max(11, { message: TEST_COST_RANGE })
      .optional(),
  })
  .transform((env, ctx) => {
    const problem = sessionSecretProblem(env.SESSION_SECRET, env.NODE_ENV);
    if (problem) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: problem });
      return z.NEVER;
    }
    if (env.TEST_BCRYPT_COST !== undefined && !isLoopbackUrl(env.APP_URL)) {
      ctx.addIssue({ code: "custom", path: ["TEST_BCRYPT_COST"], message: TEST_COST_PROBLEM });
      return z.NEVER;
    }
    const secret = env.SESSION_SECRET ?? DEV_SESSION_SECRET;
    return {
      ...env,
      SESSION_SECRET: secret,
      TOTP_KEYS: (env.TOTP_KEYS ?? secret).split(",").map((key) => key.trim()),
      DATABASE_PATH: path.resolve(env.DATABASE_PATH),
      STORAGE_DIR: path.resolve(env.STORAGE_DIR),
      /** Cookies get the Secure flag and the __Host- prefix when the site is served over https. */
      SECURE_COOKIES: env.APP_URL.startsWith("https://"),
    };
  });

export type Env = z.output<typeof envSchema>;

export class EnvError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid environment:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "EnvError";
  }
}

/** Parse an environment object; throws EnvError listing every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // Treat empty strings as "not set" so `.env` files can leave values blank.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`);
    // zod skips the final transform once a field failed: check the secret too, so every problem is listed at once.
    const secretProblem = sessionSecretProblem(cleaned.SESSION_SECRET, cleaned.NODE_ENV);
    if (secretProblem && !problems.some((p) => p.startsWith("SESSION_SECRET"))) {
      problems.push(`SESSION_SECRET: ${secretProblem}`);
    }
    throw new EnvError(problems);
  }
  return result.data;
}

let parsed: Env | undefined;

/** The environment of this process, parsed on first use. */
export function getEnv(): Env {
  parsed ??= parseEnv(process.env);
  return parsed;
}

/** For tests: forget the parsed environment so the next getEnv() re-reads process.env. */
export function resetEnvForTests() {
  parsed = undefined;
}
