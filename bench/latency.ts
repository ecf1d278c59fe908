/**
 * Request latency at microsecond resolution, for the bench parts that compare
 * a percentile while something else runs with the same percentile idle
 * (watermark: GET / p99 while stamping ÷ idle). autocannon reports whole
 * milliseconds, so a page answered in a few hundred µs had an idle p99 of 0
 * and the ratio no figure (decision 032).
 *
 * `connections` loops in this process, each on its own keep-alive connection
 * (one http.Agent with that many sockets), each sending its next request as
 * soon as the last one's body has ended, for `seconds`. Each request is timed
 * with process.hrtime.bigint() from the call to the end of the body; the
 * percentiles are nearest-rank over every sample, sorted (a few hundred
 * thousand at most: no histogram needed).
 */
import http from "node:http";

export type LatencyOptions = {
  seconds: number;
  /** Concurrent request loops, one keep-alive connection each. */
  connections: number;
  headers?: Record<string, string>;
  /** A request without an answer by then counts as a timeout (its connection is dropped). */
  timeoutMs?: number;
};

export type Latency = {
  /** Requests answered (any status). */
  requests: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  seconds: number;
  /** Microseconds, with the fraction hrtime gives. NaN when nothing was answered. */
  meanUs: number;
  p50Us: number;
  p90Us: number;
  p99Us: number;
  maxUs: number;
};

/** Nearest-rank percentile of sorted values (NaN when empty). */
export function percentile(sorted: Float64Array | readonly number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

/** GET `url` from `connections` loops for `seconds`; each answer's latency in µs, summarised. */
export async function measureLatency(url: string, options: LatencyOptions): Promise<Latency> {
  const { seconds, connections, headers = {}, timeoutMs = 10_000 } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const samples: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  const started = process.hrtime.bigint();
  const end = started + BigInt(Math.round(seconds * 1e9));

  const once = () =>
    new Promise<void>((resolve) => {
      let settled = false;
      const settle = (sample?: number, status?: number) => {
        if (settled) return;
        settled = true;
        if (sample === undefined) errors += 1;
        else {
          samples.push(sample);
          if (status === undefined || status < 200 || status >= 300) non2xx += 1;
        }
        resolve();
      };
      const t0 = process.hrtime.bigint();
      const req = http.get(url, { agent, headers }, (res) => {
        res.on("data", () => {});
        res.on("end", () => settle(Number(process.hrtime.bigint() - t0) / 1e3, res.statusCode));
        res.on("error", () => settle());
      });
      req.setTimeout(timeoutMs, () => {
        if (!settled) timeouts += 1;
        req.destroy(new Error("timeout"));
      });
      req.on("error", () => settle());
    });

  const loop = async () => {
    while (process.hrtime.bigint() < end) {
      const before = errors;
      await once();
      // A refused connection fails at once: do not spin on it.
      if (errors > before) await new Promise((r) => setTimeout(r, 10));
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, loop));
  } finally {
    agent.destroy();
  }

  const sorted = Float64Array.from(samples).sort();
  const sum = samples.reduce((a, b) => a + b, 0);
  return {
    requests: samples.length,
    non2xx,
    errors,
    timeouts,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    meanUs: samples.length ? sum / samples.length : NaN,
    p50Us: percentile(sorted, 50),
    p90Us: percentile(sorted, 90),
    p99Us: percentile(sorted, 99),
    maxUs: sorted.length ? sorted[sorted.length - 1]! : NaN,
  };
}

/** µs as ms with enough digits to read a sub-millisecond figure: 0.184, 1.27, 12.3, 184. */
export function msOf(us: number): string {
  if (!Number.isFinite(us)) return "n/a";
  const ms = us / 1000;
  return ms < 1 ? ms.toFixed(3) : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}
