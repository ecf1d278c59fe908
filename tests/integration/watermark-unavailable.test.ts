/**
 * Watermarks without a usable qpdf (issue 26 §7), in process: the parts the
 * hardening section qpdf-missing (the production server started with a PATH
 * without qpdf: forms, API, pages, /readyz, the log) cannot reach. The PATH is
 * the only override: it names a folder holding a stand-in `qpdf` script.
 *
 * - a qpdf older than 11 (Debian 11's 10.1, Ubuntu 22.04's 10.6) counts as
 *   missing: /readyz's details say so, and a watermarked upload is refused
 *   with the line that says what to install;
 * - qpdf gone after a probe that found it (removed while the server runs):
 *   the next upload check is that 400, the next stamped download the 503 (a
 *   page for a browser, JSON otherwise, HEAD too), the log says why once.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { watermarkCopy } from "~/content/watermark";
import { stampedFileResponse } from "~/modules/documents/stamped.server";
import { AppError } from "~/modules/http/app-error";
import { readSetting, setStatementsWatermark } from "~/modules/firm-settings/settings.server";
import { setLogSinkForTests } from "~/modules/logging/log.server";
import { probeWatermark, resetWatermarkProbeForTests, watermarkReadiness } from "~/modules/watermark/availability.server";
import { assertStampable, stampPdf } from "~/modules/watermark/watermark.server";
import { samplePdf } from "../helpers/sample-files";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "watermark-unavailable-test-"));
const bin = path.join(work, "bin");
fs.mkdirSync(bin);
const pdf = path.join(work, "sample.pdf");
fs.writeFileSync(pdf, samplePdf("Watermark unavailable"));
const previousPath = process.env.PATH;
const INSTALL = watermarkCopy.unavailable.install;
const viewer = { name: "Zoë Investor", email: "zoe@fund.example" };

/** A stand-in qpdf on the PATH that answers `--version` with `version`. */
function fakeQpdf(version: string) {
  const file = path.join(bin, "qpdf");
  fs.writeFileSync(file, `#!/bin/sh\necho "qpdf version ${version}"\necho "Run qpdf --copyright to see copyright and license information."\n`, { mode: 0o755 });
}

let lines: string[] = [];
const warnings = () => lines.map((line) => JSON.parse(line) as { level: string; msg: string }).filter((line) => line.msg.startsWith("Watermarks are unavailable"));

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

beforeEach(() => {
  fs.rmSync(path.join(bin, "qpdf"), { force: true });
  process.env.PATH = bin;
  resetWatermarkProbeForTests();
  lines = [];
  setLogSinkForTests((line) => lines.push(line));
});

afterEach(() => {
  setLogSinkForTests(null);
  process.env.PATH = previousPath;
  // The next file in this worker probes the real qpdf again.
  resetWatermarkProbeForTests();
});

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

describe("watermarks without a usable qpdf", () => {
  it("the statements' watermark setting cannot be turned on (the same 400), and turning it off still works", async () => {
    const admin = { id: "admin-id", email: "admin@firm.example" };
    expect((await probeWatermark()).state).toBe("unavailable");
    const refused = (() => {
      try {
        setStatementsWatermark(admin, true);
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(400);
    expect((refused as AppError).message).toBe(INSTALL);
    expect(readSetting("statements_watermark")).toBe(false);
    expect(setStatementsWatermark(admin, false)).toBe(false);
  });

  it("a qpdf older than 11 counts as missing: /readyz says so, a watermarked upload is refused with what to install", async () => {
    fakeQpdf("10.1.0");
    expect((await probeWatermark()).state).toBe("unavailable");
    expect(watermarkReadiness()).toEqual({ watermark: "unavailable", watermarkMissing: "qpdf", watermarkReason: "qpdf 10.1.0 is too old (11 or later is needed)" });

    const refused = await caught(assertStampable(pdf));
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).status).toBe(400);
    expect((refused as AppError).message).toBe(INSTALL);
    expect((refused as AppError).options.fields).toEqual({ watermark: [INSTALL] });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.level).toBe("warn");
    expect(warnings()[0]!.msg).toContain("apt-get install qpdf");
  });

  it("qpdf found at start, gone later: upload 400, stamped download 503 (page, JSON, HEAD), logged once", async () => {
    fakeQpdf("11.3.0");
    expect((await probeWatermark()).state).toBe("available");
    expect(watermarkReadiness()).toEqual({ watermark: "available" });
    fs.rmSync(path.join(bin, "qpdf"));

    // The upload's check finds it gone.
    const upload = await caught(assertStampable(pdf));
    expect((upload as AppError).status).toBe(400);
    expect((upload as AppError).options.fields).toEqual({ watermark: [INSTALL] });
    expect(watermarkReadiness()).toMatchObject({ watermark: "unavailable", watermarkMissing: "qpdf" });

    // Downloads: refused before any qpdf run or queue slot.
    const stamped = await caught(stampPdf(pdf, { ...viewer, at: new Date() }));
    expect((stamped as AppError).status).toBe(503);
    expect((stamped as AppError).message).toBe(watermarkCopy.unavailable.download);

    const file = { absolutePath: pdf, contentType: "application/pdf", fileName: "sample.pdf", disposition: "inline" } as const;
    const browser = await caught(stampedFileResponse(new Request("http://localhost/api/documents/x/view", { headers: { accept: "text/html,*/*;q=0.8" } }), file, viewer));
    expect(browser).toBeInstanceOf(Response);
    const page = browser as Response;
    expect(page.status).toBe(503);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain(`<h1>${watermarkCopy.unavailable.page.title}</h1>`);
    expect(html).toContain('href="/lp/dashboard"');

    const api = await caught(stampedFileResponse(new Request("http://localhost/api/documents/x/download", { headers: { accept: "application/json" } }), file, viewer));
    expect((api as AppError).status).toBe(503);
    expect((api as AppError).options.json).toEqual({ watermark: "unavailable" });

    const head = await caught(stampedFileResponse(new Request("http://localhost/api/documents/x/view", { method: "HEAD" }), file, viewer));
    expect((head as AppError).status).toBe(503);

    // Why, once: not again for each refusal.
    await caught(assertStampable(pdf));
    await caught(stampPdf(pdf, { ...viewer, at: new Date() }));
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.msg).toMatch(/^Watermarks are unavailable: qpdf could not be started \(spawn qpdf ENOENT\)/);
  });
});
