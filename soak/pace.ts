/**
 * The soak's client: the load mix's kinds (hardening/load.ts, in mixPattern's
 * order) sent at a steady rate, one request every 1/rate s on a clock that does
 * not wait for answers (open loop: a slow server gets the same rate, not a
 * politer one). Keep-alive connections, as a browser and a proxy keep them.
 * Requests beyond `maxInFlight` unanswered are skipped and counted, so a
 * stalled server does not pile up an unbounded queue here.
 */
import http from "node:http";
import { mixPattern, PDF_BYTES, type Answer, type Kind, type KindName } from "../hardening/load";

export type PaceOptions = {
  /** Requests per second, evenly spaced. */
  rate: number;
  seconds: number;
  /** Unanswered requests beyond which the next ones are skipped. */
  maxInFlight: number;
  /** Time without a byte on a request's connection before it counts as timed out. */
  timeoutMs: number;
  /** Stops sending early; the answers still awaited are waited for. */
  signal?: AbortSignal;
};

export type PaceCounts = {
  sent: number;
  answered: number;
  skipped: number;
  /** Connection errors (a timeout is counted under timeouts only). */
  errors: number;
  timeouts: number;
  /** Requests sent again once because a kept-alive connection closed under them (the server never saw them). */
  retried: number;
  /** Downloads answered 200 with fewer bytes than the file. */
  shortDownloads: number;
  inFlight: number;
  byKind: Map<KindName, Map<number, number>>;
  /** A few error messages. */
  errorSamples: string[];
};

export function paceMix(baseUrl: string, kinds: Kind[], options: PaceOptions, onAnswer: (answer: Answer) => void): { counts: PaceCounts; done: Promise<PaceCounts> } {
  const pattern = mixPattern(kinds);
  const counts: PaceCounts = { sent: 0, answered: 0, skipped: 0, errors: 0, timeouts: 0, retried: 0, shortDownloads: 0, inFlight: 0, byKind: new Map(kinds.map((k) => [k.name, new Map()])), errorSamples: [] };
  // Free connections close after 4 s idle, before the server's 5 s keep-alive timeout (node reads its
  // Keep-Alive hint only below the agent's own timeout).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16, timeout: 4_000 });
  const counters = kinds.map(() => 0);
  const total = Math.round(options.rate * options.seconds);
  const intervalMs = 1000 / options.rate;
  let slot = 0;

  const noteError = (message: string) => {
    if (counts.errorSamples.length < 5) counts.errorSamples.push(message);
  };

  const send = (kind: Kind, built: ReturnType<Kind["build"]>, retry: boolean, finished: () => void) => {
    const headers: Record<string, string | number> = { ...built.headers };
    if (built.body !== undefined) headers["content-length"] = Buffer.byteLength(built.body);
    let timedOut = false;
    const req = http.request(new URL(built.path, baseUrl), { method: kind.method, headers, agent }, (res) => {
      const download = kind.name === "downloads";
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (!download) chunks.push(chunk);
      });
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        counts.answered += 1;
        const statuses = counts.byKind.get(kind.name) ?? new Map<number, number>();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        counts.byKind.set(kind.name, statuses);
        if (download && status === 200 && bytes < PDF_BYTES) counts.shortDownloads += 1;
        onAnswer({ kind: kind.name, requestId: built.headers["x-request-id"], status, body: download ? "" : Buffer.concat(chunks).toString("utf8") });
        finished();
      });
      res.on("error", (error) => {
        counts.errors += 1;
        noteError(`${kind.name}: ${error.message}`);
        finished();
      });
    });
    req.setTimeout(options.timeoutMs, () => {
      timedOut = true;
      req.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The documented keep-alive race: the server closed an idle connection as this request went out on it.
      if (!retry && req.reusedSocket && error.code === "ECONNRESET") {
        counts.retried += 1;
        send(kind, built, true, finished);
        return;
      }
      if (timedOut) counts.timeouts += 1;
      else counts.errors += 1;
      noteError(`${kind.name} ${kind.method} ${built.path}: ${error.message}`);
      finished();
    });
    req.end(built.body);
  };

  const done = new Promise<PaceCounts>((resolve) => {
    const started = performance.now();
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const finishIfDone = () => {
      if (stopped && counts.inFlight === 0) {
        agent.destroy();
        resolve(counts);
      }
    };
    const stop = () => {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      finishIfDone();
    };
    options.signal?.addEventListener("abort", stop, { once: true });
    const tick = () => {
      if (stopped) return;
      const due = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1);
      while (counts.sent + counts.skipped < due) {
        if (counts.inFlight >= options.maxInFlight) {
          counts.skipped += 1;
          continue;
        }
        const k = pattern[slot++ % pattern.length]!;
        const kind = kinds[k]!;
        const built = kind.build(counters[k]!++);
        counts.sent += 1;
        counts.inFlight += 1;
        let settled = false;
        send(kind, built, false, () => {
          if (settled) return; // an error after the answer (a timeout mid-body) counts, but the request ends once
          settled = true;
          counts.inFlight -= 1;
          finishIfDone();
        });
      }
      if (counts.sent + counts.skipped >= total) return stop();
      timer = setTimeout(tick, Math.max(1, started + (counts.sent + counts.skipped) * intervalMs - performance.now()));
    };
    if (options.signal?.aborted) stop();
    else tick();
  });
  return { counts, done };
}
