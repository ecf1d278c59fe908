import path from "node:path";
import sirv from "sirv";
import type { AppOptions } from "./app";

/**
 * The client build's files: hashed assets with a year of immutable caching
 * (and their precompressed .br/.gz), the rest of the public folder for an hour.
 */
export function staticFiles(clientDir: string): AppOptions["serveStatic"] {
  const assets = sirv(path.join(clientDir, "assets"), { immutable: true, maxAge: 31536000, etag: true, gzip: true, brotli: true });
  const publicFiles = sirv(clientDir, { maxAge: 3600, etag: true, dotfiles: false });
  return (req, res, next) => {
    if (req.url?.startsWith("/assets/")) {
      req.url = req.url.slice("/assets".length);
      return assets(req, res, () => {
        req.url = `/assets${req.url}`;
        next();
      });
    }
    return publicFiles(req, res, next);
  };
}
