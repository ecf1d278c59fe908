/** The current time, replaceable in tests (session lifetimes, token expiry). */
const globalForClock = globalThis as unknown as { __clockOffsetMs?: number };

export function now(): Date {
  return new Date(Date.now() + (globalForClock.__clockOffsetMs ?? 0));
}

/** For tests: move the clock forward (or back) by this many milliseconds. */
export function advanceClockForTests(ms: number) {
  globalForClock.__clockOffsetMs = (globalForClock.__clockOffsetMs ?? 0) + ms;
}

export function resetClockForTests() {
  globalForClock.__clockOffsetMs = 0;
}
