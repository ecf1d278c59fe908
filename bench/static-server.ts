/**
 * The benchmark's baseline: the cheapest possible HTTP server for a given
 * payload. A bare node:http server that answers each known path with bytes
 * captured from the real server (already compressed), with the headers it
 * captured with them (content, caching, security; decision 021) and
 * Content-Length.
 *
 * Run by bench/run.ts as its own process, so that it does not share an event
 * loop with the load generator:
 *   node --import tsx bench/static-server.ts <spec.json>
 * where spec.json is a StaticSpec. Prints "ready" on stdout once listening.
 */
import fs from "node:fs";
import http from "node:http";

export type StaticSpec = {
  host: string;
  port: number;
  routes: Record<string, { file: string; status: number; headers: Record<string, string> }>;
};

type Prepared = { status: number; headers: Record<string, string | number>; body: Buffer };

function main() {
  const specPath = process.argv[2];
  if (!specPath) {
    console.error("usage: static-server.ts <spec.json>");
    process.exit(2);
  }
  const spec = JSON.parse(fs.readFileSync(specPath, "utf8")) as StaticSpec;
  const routes = new Map<string, Prepared>();
  for (const [path, route] of Object.entries(spec.routes)) {
    const body = fs.readFileSync(route.file);
    routes.set(path, { status: route.status, headers: { ...route.headers, "Content-Length": body.byteLength }, body });
  }

  const server = http.createServer((req, res) => {
    const route = routes.get(req.url ?? "/");
    if (!route) {
      res.writeHead(404, { "Content-Length": 0 });
      res.end();
      return;
    }
    res.writeHead(route.status, route.headers);
    res.end(route.body);
  });
  // Same connection timeouts as server/index.ts, so keep-alive behaves alike.
  server.keepAliveTimeout = 5_000;
  server.listen(spec.port, spec.host, () => {
    process.stdout.write("ready\n");
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main();
