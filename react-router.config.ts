import type { Config } from "@react-router/dev/config";

export default {
  // Every route is rendered on the server; forms work without JavaScript.
  ssr: true,
  // BUILD_DIR lets tests and benchmarks build side by side (default: build/).
  buildDirectory: process.env.BUILD_DIR ?? "build",
  // Every v8 flag is set, on or off, so none is left to a default that changes (decision 017).
  future: {
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_trailingSlashAwareDataRequests: true,
    // Off until loaders and actions read the client address from a router context
    // instead of `context.clientAddress` (decision 017 says when and how).
    v8_middleware: false,
    // Off until no loader reads its own path from `request.url`: with it on, a data
    // request's URL keeps its `.data` suffix (decision 017).
    v8_passThroughRequests: false,
  },
} satisfies Config;
