import type * as NodeFs from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { action as documentsAction } from "~/routes/api/documents";
import { incomingDir } from "~/modules/storage/storage.server";
import { clearDocuments, filesUnder, rawMultipartRequest, storedFiles } from "../helpers/documents";
import { callRoute } from "../helpers/http";
import { samplePdf } from "../helpers/sample-files";
import { clearAccountTables, insertAdmin, sessionCookieFor } from "../helpers/users";

/**
 * A slow disk: opening an upload's temporary file takes 40 ms. Found by
 * `npm run test:hardening -- --full` (one 0-byte file left in incoming/ after
 * 200 truncated uploads): when the connection broke while the file was still
 * being opened, the server removed the file before the open had created it.
 */
const OPEN_DELAY_MS = 40;

vi.mock("node:fs", async (importOriginal) => {
  const real = await importOriginal<typeof NodeFs>();
  const slowOpen = ((...args: Parameters<typeof real.open>) => {
    setTimeout(() => (real.open as (...a: unknown[]) => void)(...args), OPEN_DELAY_MS);
  }) as typeof real.open;
  const createWriteStream: typeof real.createWriteStream = (file, options) =>
    real.createWriteStream(file, {
      ...(typeof options === "string" ? { encoding: options } : options),
      fs: { open: slowOpen, write: real.write, writev: real.writev, close: real.close },
    });
  return { ...real, default: { ...real, createWriteStream }, createWriteStream };
});

describe("an upload whose connection breaks while its temporary file is being opened", () => {
  let adminCookie: string;
  beforeAll(async () => {
    clearAccountTables();
    clearDocuments();
    adminCookie = await sessionCookieFor(await insertAdmin({ email: "slow-disk-admin@lumenridge.example" }));
  });
  afterAll(() => clearDocuments());

  /** The fields and the start of the file part arrive; then the body errors, as a dropped connection does. */
  async function brokenOffUpload(): Promise<Request> {
    const whole = rawMultipartRequest(
      "/api/documents",
      [
        { name: "title", value: "Broken off" },
        { name: "category", value: "reports" },
        { name: "file", filename: "a.pdf", type: "application/pdf", bytes: samplePdf("broken off", 4000) },
      ],
      { cookie: adminCookie },
    );
    const bytes = new Uint8Array(await whole.arrayBuffer());
    let sent = false;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (!sent) {
            sent = true;
            controller.enqueue(bytes.subarray(0, bytes.length - 3000));
            return;
          }
          return new Promise<void>((resolve) =>
            setImmediate(() => {
              controller.error(new Error("Client aborted the request"));
              resolve();
            }),
          );
        },
      },
      { highWaterMark: 0 },
    );
    return new Request(whole.url, { method: "POST", headers: whole.headers, body, duplex: "half" } as RequestInit);
  }

  it("answers 400 each time and leaves nothing in incoming/ once the opens are done", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = (await callRoute(documentsAction as (args: never) => Promise<Response>, await brokenOffUpload())) as Response;
      statuses.push(response.status);
      expect(await response.json()).toMatchObject({ error: expect.any(String) });
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    await new Promise((resolve) => setTimeout(resolve, OPEN_DELAY_MS * 3));
    expect(filesUnder(incomingDir())).toEqual([]);
    expect(storedFiles()).toEqual([]);
  });
});
