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
    expect(data.toast).toEqual({ title: "Success", description: "Your pitch has been submitted successfully!" });
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
    expect(redirect.status).toBe(302);
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

  it("re-renders the page (400, no redirect) with the field messages when the pitch is invalid", async () => {
    const { data, status } = expectData<PitchOutcome>(await postForm(validPitch({ name: "", deckUrl: "javascript:alert(1)" })));
    expect(status).toBe(400);
    expect(data.result.error).toEqual({ name: ["Name is required"], deckUrl: ["Invalid URL"] });
    expect(allPitches()).toHaveLength(0);
  });
});
