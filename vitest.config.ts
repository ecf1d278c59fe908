import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Deliberately not based on vite.config.ts: the reactRouter() plugin does not run under Vitest.
export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/setup.ts"],
    // Each test file runs in its own isolated module graph with its own SQLite file (see tests/setup.ts).
    isolate: true,
    // Two files at a time on two cores (Vitest's default is one fewer than the cores): much of a file's time
    // is bcrypt on libuv's threads, child processes and file I/O, so a second file fills the gaps.
    maxWorkers: 2,
    testTimeout: 10_000,
  },
});
