import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Write .br and .gz next to each built JS/CSS/SVG asset, so they are served without compressing per request. */
const dir = path.resolve(process.env.BUILD_DIR ?? "build", "client");
let count = 0;
function walk(current: string) {
  for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
    const file = path.join(current, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (/\.(js|css|svg|json|txt|xml)$/.test(entry.name)) {
      const body = fs.readFileSync(file);
      if (body.byteLength < 1024) continue;
      fs.writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      fs.writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      count++;
    }
  }
}
walk(dir);
console.log(`precompressed ${count} assets`);
