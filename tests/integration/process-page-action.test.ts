import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { flushMailer } from "~/modules/mail/mail.server";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import type { PitchOutcome } from "~/modules/pitches/submit-outcome.server";
import { readFlash } from "~/modules/toast/flash.server";
import { issueFormStamp } from "~/modules/pitches/form-stamp.server";
import { action } from "~/routes/site/process";
import { allOutbox, allPitches, clearTables } from "../helpers/db";
import { validPitch } from "../helpers/fixtures";
import { callRoute, expectData, expectRedirect, formRequest, requestWithCookie } from "../helpers/http";
import { TEST_FIRM_INBOX } from "../helpers/test-env";

/** The form as a person sends it: with the page's signed render time, from a minute ago (decision 026). */
const postForm = (fields: Record<string, string>) =>
  callRoute(action, formRequest("/process", { formStamp: issueFormStamp(new Date(Date.now() - 60_000)), website: "", ...fields }));
const enhanced = async (fields: Record<string, string>) =>
  expectData<PitchOutcome>(await postForm({ ...fields, _enhanced: "1" }));

beforeEach(() => {
  clearTables();
  resetRateLimitsForTests();
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(async () => {
  await flushMailer();
  resetRateLimitsForTests();
  vi.restoreAllMocks();
});

describe("pitch form, with JavaScript (_enhanced=1)", () => {
  it("stores the pitch, queues both mails and answers the success toast with a reset form", async () => {
    const { data, status } = await enhanced(validPitch({ stage: "Series B" }));
    expect(status).toBe(200);
    expect(data.status).toBe("success");
    expect(data.toast).toEqual({ id: expect.any(String), title: "Success", description: "Your pitch has been submitted successfully!" });
    expect(data.result.error).toBeUndefined();
    expect(data.result.initialValue).toBeNull();

    expect(allPitches()).toEqual([expect.objectContaining({ company: "Analytical Engines", stage: "Series B" })]);
    expect(allOutbox().map((m) => m.to).sort()).toEqual(["ada@analytical.example", TEST_FIRM_INBOX].sort());
  });

  it("stores no deck when the deck field is left empty", async () => {
    await enhanced(validPitch({ deckUrl: "" }));
    expect(allPitches().map((p) => p.deckUrl)).toEqual([null]);
  });

  it("shows every field's message for an empty form, and stores nothing", async () => {
    const { data, status } = await enhanced({ name: "", email: "", company: "", stage: "", deckUrl: "", message: "" });
    expect(status).toBe(400);
    expect(data.status).toBe("error");
    expect(data.toast).toBeNull();
    expect(data.result.error).toEqual({
      name: ["Name is required"],
      email: ["Invalid email address"],
      company: ["Company is required"],
      stage: ["Please choose a stage"],
      message: ["Message is required"],
    });
    expect(allPitches()).toHaveLength(0);
    expect(allOutbox()).toHaveLength(0);
  });

  it.each([
    ["email", "ada-at-example", "Invalid email address"],
    ["stage", "Series Z", "Please choose a stage"],
    ["deckUrl", "javascript:alert(1)", "Invalid URL"],
    ["deckUrl", "deck.example/pitch.pdf", "Invalid URL"],
  ])("shows %s's message for %j and keeps the typed values", async (key, value, message) => {
    const { data, status } = await enhanced(validPitch({ [key]: value }));
    expect(status).toBe(400);
    expect(data.result.error).toEqual({ [key]: [message] });
    expect(data.result.initialValue).toMatchObject({ [key]: value, company: "Analytical Engines" });
    expect(allPitches()).toHaveLength(0);
  });

  it("rate-limits the 11th pitch from one address with the destructive 'Error' toast", async () => {
    for (let i = 1; i <= 10; i++) {
      expect((await enhanced(validPitch({ email: `f${i}@startup.example` }))).status, `pitch ${i}`).toBe(200);
    }
    const { data, status } = await enhanced(validPitch({ email: "f11@startup.example" }));
    expect(status).toBe(429);
    expect(data.toast).toEqual({
      id: expect.any(String),
      title: "Error",
      description: "Too many pitch submissions. Please try again later.",
      variant: "destructive",
    });
    expect(data.result.error).toEqual({ "": ["Too many pitch submissions. Please try again later."] });
    expect(allPitches()).toHaveLength(10);
  });
});

describe("pitch form, without JavaScript", () => {
  it("redirects to /process#pitch with the success toast and form outcome in the flash cookie", async () => {
    const redirect = expectRedirect(await postForm(validPitch()));
    expect(redirect.status).toBe(303);
    expect(redirect.location).toBe("/process#pitch");
    expect(redirect.cookie).toMatch(/^lr_flash=/);

    const { flash } = await readFlash(requestWithCookie("/process", redirect.cookie ?? ""));
    expect(flash.toast).toMatchObject({
      title: "Success",
      description: "Your pitch has been submitted successfully!",
      variant: "default",
    });
    expect(flash.form).toEqual({ formId: "pitch-form", status: "success" });
    expect(allPitches()).toHaveLength(1);
  });

  it("redirects (303) back to the form with the field messages and the typed values in the flash when the pitch is invalid", async () => {
    const redirect = expectRedirect(await postForm(validPitch({ name: "", deckUrl: "javascript:alert(1)" })));
    expect(redirect.status).toBe(303);
    expect(redirect.location).toBe("/process#pitch");
    const { flash } = await readFlash(requestWithCookie("/process", redirect.cookie ?? ""));
    expect(flash.toast).toBeNull();
    expect(flash.form).toMatchObject({
      formId: "pitch-form",
      status: "error",
      fieldErrors: { name: ["Name is required"], deckUrl: ["Invalid URL"] },
      values: { email: "ada@analytical.example", company: "Analytical Engines", deckUrl: "javascript:alert(1)" },
    });
    expect(flash.form?.values?.formStamp).toMatch(/\S/);
    expect(flash.form?.values).not.toHaveProperty("website");
    expect(allPitches()).toHaveLength(0);
  });

  it("redirects a rate-limited post back with the 'Error' toast and the message in the form (decision 010)", async () => {
    for (let i = 1; i <= 10; i++) await postForm(validPitch({ email: `n${i}@startup.example` }));
    const redirect = expectRedirect(await postForm(validPitch({ email: "n11@startup.example" })));
    expect(redirect.status).toBe(303);
    const { flash } = await readFlash(requestWithCookie("/process", redirect.cookie ?? ""));
    expect(flash.toast).toMatchObject({ title: "Error", description: "Too many pitch submissions. Please try again later.", variant: "destructive" });
    expect(flash.form).toMatchObject({ status: "error", message: "Too many pitch submissions. Please try again later.", values: { email: "n11@startup.example" } });
    expect(allPitches()).toHaveLength(10);
  });

  it("leaves out a typed value too long for the flash cookie, keeping the others and the messages", async () => {
    const redirect = expectRedirect(await postForm(validPitch({ name: "", message: "m".repeat(4000) })));
    const { flash } = await readFlash(requestWithCookie("/process", redirect.cookie ?? ""));
    expect(redirect.cookie?.length ?? 0).toBeLessThan(4000);
    expect(flash.form?.fieldErrors).toEqual({ name: ["Name is required"] });
    expect(flash.form?.values).toMatchObject({ company: "Analytical Engines" });
    expect(flash.form?.values).not.toHaveProperty("message");
  });
});
