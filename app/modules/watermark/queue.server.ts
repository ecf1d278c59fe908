import { watermarkCopy } from "~/content/watermark";
import { getEnv } from "../config/env.server";
import { AppError } from "../http/app-error";

/**
 * The stamping slots: at most WATERMARK_CONCURRENCY qpdf runs at once, at most
 * QUEUE_PER_SLOT × that many requests waiting (first come, first served). A
 * request that finds the queue full, or waits longer than MAX_WAIT_MS, gets a
 * 503 with Retry-After at once rather than piling up behind the others.
 */

const QUEUE_PER_SLOT = 4;
export const RETRY_AFTER_SECONDS = 5;
const MAX_WAIT_MS = 30_000;

/** Gives the slot back; calling it again does nothing. */
export type ReleaseSlot = () => void;

type Waiter = { grant: () => void };

let running = 0;
const waiting: Waiter[] = [];

function busy(): AppError {
  return new AppError("service_unavailable", watermarkCopy.messages.busy, { retryAfterSeconds: RETRY_AFTER_SECONDS });
}

function slots(): number {
  return getEnv().WATERMARK_CONCURRENCY;
}

function releaser(): ReleaseSlot {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    running--;
    pump();
  };
}

function pump() {
  while (running < slots() && waiting.length > 0) {
    running++;
    waiting.shift()!.grant();
  }
}

/**
 * Waits for a slot. Rejects at once with the 503 AppError when the queue is
 * full, later with it when the wait passes MAX_WAIT_MS, and with the signal's
 * reason when `signal` aborts first (the client went away while waiting).
 */
export function acquireSlot(signal?: AbortSignal): Promise<ReleaseSlot> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  if (running < slots() && waiting.length === 0) {
    running++;
    return Promise.resolve(releaser());
  }
  if (waiting.length >= QUEUE_PER_SLOT * slots()) return Promise.reject(busy());

  return new Promise<ReleaseSlot>((resolve, reject) => {
    const leave = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      const index = waiting.indexOf(waiter);
      if (index >= 0) waiting.splice(index, 1);
    };
    const waiter: Waiter = {
      grant: () => {
        leave();
        resolve(releaser());
      },
    };
    const onAbort = () => {
      leave();
      reject(signal!.reason as Error);
    };
    const timer = setTimeout(() => {
      leave();
      reject(busy());
    }, MAX_WAIT_MS);
    timer.unref();
    signal?.addEventListener("abort", onAbort, { once: true });
    waiting.push(waiter);
  });
}

export function queueState(): { running: number; queued: number } {
  return { running, queued: waiting.length };
}
