/** The current time, replaceable in tests (session lifetimes, token expiry). */
let offsetMs = 0;

export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

/** For tests: move the clock forward (or back) by this many milliseconds. */
export function advanceClockForTests(ms: number) {
  offsetMs += ms;
}

export function resetClockForTests() {
  offsetMs = 0;
}
