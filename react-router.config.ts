import type { Config } from "@react-router/dev/config";

export default {
  // Every route is rendered on the server; forms work without JavaScript.
  ssr: true,
  // BUILD_DIR lets tests and benchmarks build side by side (default: build/).
  buildDirectory: process.env.BUILD_DIR ?? "build",
  future: {
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
