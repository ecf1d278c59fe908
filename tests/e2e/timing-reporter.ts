import fs from "node:fs";
import path from "node:path";
import type { FullResult, Reporter, TestCase, TestResult } from "@playwright/test/reporter";

/**
 * Per-project figures of a Playwright run, for the timing table `npm test`
 * prints (scripts/test.mjs): tests passed, failed, flaky and skipped, the wall
 * time from the project's first test start to its last test end, and the sum
 * of its tests' durations. The projects run side by side in one invocation
 * (the workers take whatever test is next), so the sums say where the time
 * goes and the spans say when each project was done. Written to
 * $E2E_TIMING_FILE when set.
 */
type ProjectFigures = { passed: number; failed: number; flaky: number; skipped: number; busyMs: number; first: number; last: number };

export default class TimingReporter implements Reporter {
  private projects = new Map<string, ProjectFigures>();
  private started = Date.now();

  private of(test: TestCase): ProjectFigures {
    const name = test.parent.project()?.name ?? "?";
    let figures = this.projects.get(name);
    if (!figures) {
      figures = { passed: 0, failed: 0, flaky: 0, skipped: 0, busyMs: 0, first: Infinity, last: 0 };
      this.projects.set(name, figures);
    }
    return figures;
  }

  onTestEnd(test: TestCase, result: TestResult) {
    const figures = this.of(test);
    const start = result.startTime.getTime();
    figures.first = Math.min(figures.first, start);
    figures.last = Math.max(figures.last, start + result.duration);
    figures.busyMs += result.duration;
    // Counted once, at the test's final result (a retry that passes makes it flaky).
    if (result.status === "skipped") figures.skipped += 1;
    else if (test.outcome() === "flaky" && result.status === "passed") figures.flaky += 1;
    else if (result.status === "passed") figures.passed += 1;
    else if (result.retry === test.retries) figures.failed += 1;
  }

  onEnd(result: FullResult) {
    const file = process.env.E2E_TIMING_FILE;
    if (!file) return;
    const projects = Object.fromEntries(
      [...this.projects].map(([name, f]) => [
        name,
        { ...f, spanMs: f.first === Infinity ? 0 : f.last - f.first, startOffsetMs: f.first === Infinity ? 0 : f.first - this.started },
      ]),
    );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ status: result.status, durationMs: result.duration, projects }, null, 2));
  }
}
