import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetRateLimitsForTests } from "~/modules/http/rate-limit.server";
import type { NewsletterOutcome } from "~/modules/newsletter/subscribe-outcome.server";
import { readFlash } from "~/modules/toast/flash.server";
import { action } from "~/routes/site/newsletter";
import { allSubscribers, clearTables } from "../helpers/db";
import { confirmedSubscriber } from "../helpers/newsletter";
import { callRoute, expectData, expectRedirect, formRequest, requestWithCookie } from "../helpers/http";

const postForm = (fields: Record<string, string>) => callRoute(action, formRequest("/newsletter", fields));
const enhanced = async (fields: Record<string, string>) =>
  expectData<NewsletterOutcome>(await postForm({ ...fields, _enhanced: "1" }));

/** Follow a no-JavaScript post: the redirect, then what the next page reads from the flash cookie. */
async function followNoJs(fields: Record<string, string>) {
  const redirect = expectRedirect(await postForm(fields));
  expect(redirect.cookie).not.toBeNull();
  const { flash, setCookie } = await readFlash(requestWithCookie(redirect.location, redirect.cookie ?? ""));
  return { ...redirect, flash, clearCookie: setCookie };
}

beforeEach(() => {
  clearTables();
  resetRateLimitsForTests();
});
afterEach(() => resetRateLimitsForTests());

describe("newsletter form, with JavaScript (_enhanced=1)", () => {
  it("subscribes (pending, the sign-up page kept) and answers the check-your-inbox toast with a reset form", async () => {
    const { data, status } = await enhanced({ email: " Lise.Meitner@Fission.example " });
    expect(status).toBe(200);
    expect(data.status).toBe("success");
    expect(data.toast).toEqual({ id: expect.any(String), title: "Success", description: "Almost done: we've sent you an e-mail with a link to confirm your subscription." });
    expect(data.result.error).toBeUndefined();
    expect(data.result.initialValue).toBeNull();
    expect(allSubscribers()).toEqual([expect.objectContaining({ email: "lise.meitner@fission.example", status: "pending", consentPage: "/newsletter" })]);
  });

  it("answers a pending address that subscribes again exactly like a new one", async () => {
    const first = await enhanced({ email: "again@lumenridge.example", redirectTo: "/team" });
    const second = await enhanced({ email: "again@lumenridge.example", redirectTo: "/team" });
    const other = await enhanced({ email: "other@lumenridge.example", redirectTo: "/team" });
    // The same answer (each toast with a fresh id, so a remounted form never shows it twice).
    const withoutId = (answer: typeof first) => ({ ...answer, data: { ...answer.data, toast: { ...answer.data.toast, id: "" } } });
    expect(withoutId(second)).toEqual(withoutId(first));
    expect(withoutId(other)).toEqual(withoutId(first));
    expect(allSubscribers().find((s) => s.email === "again@lumenridge.example")?.consentPage).toBe("/team");
  });

  it.each([["not-an-email"], [""], ["a".repeat(250) + "@b.example"]])(
    "answers 400 with 'Invalid email address' under the field and no toast for %j",
    async (email) => {
      const { data, status } = await enhanced({ email });
      expect(status).toBe(400);
      expect(data.status).toBe("error");
      expect(data.toast).toBeNull();
      expect(data.result.error).toEqual({ email: ["Invalid email address"] });
      expect(allSubscribers()).toHaveLength(0);
    },
  );

  it("answers 400 when the email field is missing altogether", async () => {
    const { data, status } = await enhanced({});
    expect(status).toBe(400);
    expect(data.result.error).toEqual({ email: ["Invalid email address"] });
  });

  it("answers a confirmed address with the destructive 'Error' / 'This email is already subscribed.' toast", async () => {
    confirmedSubscriber("dup@lumenridge.example");
    const { data, status } = await enhanced({ email: "DUP@lumenridge.example" });
    expect(status).toBe(409);
    expect(data.status).toBe("error");
    expect(data.toast).toEqual({
      id: expect.any(String),
      title: "Error",
      description: "This email is already subscribed.",
      variant: "destructive",
    });
    expect(data.result.error).toEqual({ email: ["This email is already subscribed."] });
    // The visitor's input is kept in the form.
    expect(data.result.initialValue).toMatchObject({ email: "DUP@lumenridge.example" });
  });

  it("rate-limits the 21st attempt from one address with a destructive toast", async () => {
    for (let i = 1; i <= 20; i++) {
      const { status } = await enhanced({ email: `r${i}@lumenridge.example` });
      expect(status, `attempt ${i}`).toBe(200);
    }
    const { data, status } = await enhanced({ email: "r21@lumenridge.example" });
    expect(status).toBe(429);
    expect(data.toast).toEqual({
      id: expect.any(String),
      title: "Error",
      description: "Too many subscription attempts. Please try again later.",
      variant: "destructive",
    });
    expect(allSubscribers()).toHaveLength(20);
  });
});

describe("newsletter form, without JavaScript", () => {
  it("redirects back to the page and form it came from, carrying the success toast", async () => {
    const result = await followNoJs({ email: "ada@lumenridge.example", redirectTo: "/portfolio", formId: "footer-newsletter" });
    expect(result.status).toBe(303);
    expect(result.location).toBe("/portfolio#footer-newsletter");
    expect(result.cookie).toMatch(/^lr_flash=/);
    expect(result.flash.toast).toMatchObject({
      title: "Success",
      description: "Almost done: we've sent you an e-mail with a link to confirm your subscription.",
      variant: "default",
    });
    expect(result.flash.form).toEqual({ formId: "footer-newsletter", status: "success" });
    expect(allSubscribers().map((s) => s.email)).toEqual(["ada@lumenridge.example"]);
  });

  it("sets the flash cookie HttpOnly, SameSite=Lax, short-lived", async () => {
    const response = await postForm({ email: "ada@lumenridge.example", redirectTo: "/" });
    const setCookie = (response as Response).headers.get("Set-Cookie") ?? "";
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=60/i);
  });

  it("carries field errors and the typed value through the redirect, without a toast", async () => {
    const result = await followNoJs({ email: "nope", redirectTo: "/", formId: "hero-newsletter" });
    expect(result.location).toBe("/#hero-newsletter");
    expect(result.flash.toast).toBeNull();
    expect(result.flash.form).toEqual({
      formId: "hero-newsletter",
      status: "error",
      fieldErrors: { email: ["Invalid email address"] },
      values: { email: "nope" },
    });
  });

  it("carries the duplicate toast (a confirmed address) through the redirect", async () => {
    confirmedSubscriber("dup@lumenridge.example");
    const result = await followNoJs({ email: "dup@lumenridge.example", redirectTo: "/team", formId: "footer-newsletter" });
    expect(result.flash.toast).toMatchObject({
      title: "Error",
      description: "This email is already subscribed.",
      variant: "destructive",
    });
    expect(result.flash.form?.fieldErrors).toEqual({ email: ["This email is already subscribed."] });
  });

  it("reads the flash only once (the next page clears the cookie)", async () => {
    const result = await followNoJs({ email: "once@lumenridge.example", redirectTo: "/" });
    expect(result.clearCookie).toMatch(/^lr_flash=;/);
    expect(result.clearCookie).toMatch(/Expires=Thu, 01 Jan 1970/);
  });

  it("carries the rate-limit toast through the redirect", async () => {
    for (let i = 1; i <= 20; i++) await postForm({ email: `nojs${i}@lumenridge.example` });
    const result = await followNoJs({ email: "nojs21@lumenridge.example", redirectTo: "/", formId: "footer-newsletter" });
    expect(result.location).toBe("/#footer-newsletter");
    expect(result.flash.toast).toMatchObject({
      title: "Error",
      description: "Too many subscription attempts. Please try again later.",
      variant: "destructive",
    });
    expect(result.flash.form).toMatchObject({ formId: "footer-newsletter", status: "error", values: { email: "nojs21@lumenridge.example" } });
    expect(allSubscribers()).toHaveLength(20);
  });

  it("goes to /newsletter#newsletter-page when the form names no page", async () => {
    const result = await followNoJs({ email: "plain@lumenridge.example" });
    expect(result.location).toBe("/newsletter#newsletter-page");
    expect(result.flash.form?.formId).toBe("newsletter-page");
  });

  it.each(["//evil.example", "https://evil.example", "http://evil.example/portfolio", "/\\evil.example", "javascript:alert(1)"])(
    "never redirects off-site: redirectTo %j falls back to /newsletter",
    async (redirectTo) => {
      const result = await followNoJs({ email: "safe@lumenridge.example", redirectTo, formId: "footer-newsletter" });
      expect(result.location).toBe("/newsletter#footer-newsletter");
      expect(result.flash.toast?.title).toBe("Success");
    },
  );

  it.each(["/.//evil.example", "/..//evil.example/x"])(
    "never redirects off-site through dot segments: redirectTo %j",
    async (redirectTo) => {
      const result = await followNoJs({ email: "dots@lumenridge.example", redirectTo, formId: "footer-newsletter" });
      expect(new URL(result.location, "https://www.lumenridge.example").host).toBe("www.lumenridge.example");
    },
  );

  it("still redirects home when the posted formId carries a line break", async () => {
    const response = await postForm({ email: "crlf@lumenridge.example", redirectTo: "/", formId: "footer\r\nX-Evil: 1" });
    const result = expectRedirect(response);
    expect(result.status).toBe(303);
    expect(result.location.startsWith("/#")).toBe(true);
    expect(result.location).not.toMatch(/[\r\n]/);
  });
});
