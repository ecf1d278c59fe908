import type { UNSAFE_DataWithResponseInit as DataWithResponseInit } from "react-router";
import { describe, expect, it } from "vitest";
import { AppError } from "~/modules/http/app-error";
import { requestMessages } from "~/content/validation";
import { answerConform, answerForm, FLASH_VALUES_BUDGET, runFormAction } from "~/modules/http/form-answer.server";
import { readFlash } from "~/modules/toast/flash.server";
import { expectData, expectRedirect, requestWithCookie } from "../helpers/http";

function form(fields: Record<string, string>, enhanced: boolean): FormData {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  if (enhanced) formData.set("_enhanced", "1");
  return formData;
}

const options = {
  success: (name: string) => ({ toast: { title: "Saved", description: `${name} saved` } }),
  failureTitle: "Save failed",
  redirectTo: "/admin/investors",
  formId: "save-form",
};

async function flashOf(response: Response) {
  const { cookie } = expectRedirect(response);
  return (await readFlash(requestWithCookie("/admin/investors", cookie ?? ""))).flash;
}

describe("a form's answer", () => {
  it("gives an enhanced form the toast with a fresh id and a 200", async () => {
    const first = expectData<{ status: string; toast: { id: string; title: string; description: string } }>(
      await runFormAction(form({}, true), () => "Ada", options),
    );
    const second = expectData<{ toast: { id: string } }>(await runFormAction(form({}, true), () => "Ada", options));
    expect(first.status).toBe(200);
    expect(first.data).toMatchObject({ status: "success", toast: { title: "Saved", description: "Ada saved" } });
    expect(first.data.toast.id).not.toBe(second.data.toast.id);
  });

  it("sends a form without JavaScript back with a flash (303)", async () => {
    const response = await runFormAction(form({}, false), () => "Ada", options);
    expect(expectRedirect(response)).toMatchObject({ status: 303, location: "/admin/investors" });
    const flash = await flashOf(response as Response);
    expect(flash.toast).toMatchObject({ title: "Saved", description: "Ada saved" });
    expect(flash.form).toEqual({ formId: "save-form", status: "success" });
  });

  it("answers a refusal with its status, message, field errors and Retry-After", async () => {
    const refusal = () => {
      throw new AppError("rate_limited", "Too many attempts. Try again in 2 minutes.", {
        retryAfterSeconds: 120,
        fields: { email: ["Too many"] },
      });
    };
    const enhanced = (await runFormAction(form({}, true), refusal, options)) as DataWithResponseInit<unknown>;
    expect(expectData(enhanced)).toMatchObject({
      status: 429,
      data: { status: "error", toast: { title: "Save failed", description: "Too many attempts. Try again in 2 minutes.", variant: "destructive" } },
    });
    expect(new Headers(enhanced.init?.headers).get("Retry-After")).toBe("120");

    const plain = (await runFormAction(form({}, false), refusal, options)) as Response;
    expect(plain.headers.get("Retry-After")).toBe("120");
    expect((await flashOf(plain)).form).toMatchObject({ status: "error", fieldErrors: { email: ["Too many"] } });
  });

  it("never shows an unexpected error's text", async () => {
    const crash = () => {
      throw new Error("SQLITE_CORRUPT: database disk image is malformed");
    };
    const answer = expectData<{ toast: { description: string } }>(await runFormAction(form({}, true), crash, options));
    expect(answer.status).toBe(500);
    expect(answer.data.toast.description).toBe(requestMessages.formFailed);
  });
});

describe("a Conform form's answer (answerConform)", () => {
  const refused = {
    status: "error" as const,
    initialValue: { email: "ada@example.test", password: "a secret typed here", note: "kept" },
    error: { email: ["Invalid email address"], "": ["Check the form"] },
  };
  const answer = { formId: "sign-in", httpStatus: 400, toast: null, result: refused, redirectTo: "/lp/login", keep: ["email", "note"] };

  it("without JavaScript: a 303 whose flash has the message, the field errors and only the kept values (never the password)", async () => {
    const response = (await answerConform(form({}, false), answer)) as Response;
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/lp/login");
    const flash = await flashOf(response);
    expect(flash.form).toEqual({
      formId: "sign-in",
      status: "error",
      message: "Check the form",
      fieldErrors: { email: ["Invalid email address"] },
      values: { email: "ada@example.test", note: "kept" },
    });
    expect(JSON.stringify(flash)).not.toContain("a secret typed here");
  });

  it("with JavaScript: the Conform result with its status, and Retry-After when given", async () => {
    const result = await answerConform(form({}, true), { ...answer, httpStatus: 429, retryAfterSeconds: 30 });
    const { data, status } = expectData<{ status: string; result: typeof refused }>(result);
    expect(status).toBe(429);
    expect(data).toMatchObject({ status: "error", result: refused });
    expect(new Headers((result as unknown as DataWithResponseInit<unknown>).init?.headers).get("Retry-After")).toBe("30");
  });

  it("leaves out a value too long for the cookie, and sets no flash cookie when there is nothing to carry", async () => {
    const long = { ...refused, initialValue: { ...refused.initialValue, note: "n".repeat(FLASH_VALUES_BUDGET) } };
    const flash = await flashOf((await answerConform(form({}, false), { ...answer, result: long })) as Response);
    expect(flash.form?.values).toEqual({ email: "ada@example.test" });

    const bare = (await answerForm({ enhanced: false }, { httpStatus: 200, toast: null, redirectTo: "/admin/dashboard" })) as Response;
    expect(bare.status).toBe(303);
    expect(bare.headers.get("Set-Cookie")).toBeNull();
  });
});
