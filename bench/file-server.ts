/**
 * The download baseline of DESIGN.md §7: a bare node:http server answering
 * every GET with one file through fs.createReadStream (default options), with
 * the headers a download needs (Content-Type, Content-Length,
 * Content-Disposition, Cache-Control) and nothing else.
 *
 * Run by bench/files.ts as its own process:
 *   node --import tsx bench/file-server.ts <host> <port> <file>
 * Prints "ready" on stdout once listening.
 */
import fs from "node:fs";
import http from "node:http";

function main() {
  const [host, portArg, file] = process.argv.slice(2);
  const port = Number(portArg);
  if (!host || !file || !Number.isInteger(port)) {
    console.error("usage: file-server.ts <host> <port> <file>");
    process.exit(2);
  }
  const size = fs.statSync(file).size;

  const server = http.createServer((req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { "Content-Length": 0 });
      res.end();
      return;
    }
    res.writeHead(200, {
      "Content-Type": "application/pdf",
      "Content-Length": size,
      "Content-Disposition": 'attachment; filename="bench.pdf"',
      "Cache-Control": "private, no-store",
    });
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    const stream = fs.createReadStream(file);
    stream.on("error", () => res.destroy());
    res.on("close", () => stream.destroy());
    stream.pipe(res);
  });
  server.keepAliveTimeout = 5_000;
  server.listen(port, host, () => {
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
