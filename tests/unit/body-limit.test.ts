import { describe, expect, it } from "vitest";
import { bodyLimitFor, DEFAULT_BODY_LIMIT, PITCH_BODY_LIMIT, UPLOAD_BODY_LIMIT } from "../../server/app";

describe("request body limits", () => {
  it("allow an upload's size only for a multipart body to an upload path", () => {
    expect(bodyLimitFor("/admin/documents", "multipart/form-data; boundary=x")).toBe(UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor("/api/fund-documents", "Multipart/Form-Data; boundary=y")).toBe(UPLOAD_BODY_LIMIT);
  });

  it("keep a plain form post to the documents page (a delete) at the form limit", () => {
    expect(bodyLimitFor("/admin/documents", "application/x-www-form-urlencoded")).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor("/admin/documents", undefined)).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor("/newsletter", "multipart/form-data; boundary=x")).toBe(DEFAULT_BODY_LIMIT);
  });

  it("give a pitch with its deck (multipart) room for 25 MB and the fields; a JSON pitch stays at the small limit", () => {
    expect(PITCH_BODY_LIMIT).toBeGreaterThan(25 * 1024 * 1024 + 1024 * 1024);
    expect(PITCH_BODY_LIMIT).toBeLessThan(UPLOAD_BODY_LIMIT);
    expect(bodyLimitFor("/process", "multipart/form-data; boundary=x")).toBe(PITCH_BODY_LIMIT);
    expect(bodyLimitFor("/api/pitch", "multipart/form-data; boundary=x")).toBe(PITCH_BODY_LIMIT);
    expect(bodyLimitFor("/api/pitch", "application/json")).toBe(DEFAULT_BODY_LIMIT);
    expect(bodyLimitFor("/process", "application/x-www-form-urlencoded")).toBe(DEFAULT_BODY_LIMIT);
  });
});
