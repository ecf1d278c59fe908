import { describe, expect, it } from "vitest";
import { readFlash, redirectWithFlash } from "~/modules/toast/flash.server";
import { expectRedirect, requestWithCookie } from "../helpers/http";

describe("flash messages", () => {
  it("carry a toast and a form outcome to the next page", async () => {
    const response = await redirectWithFlash("/portfolio#f", {
      toast: { title: "Saved", description: "All good", duration: 8000 },
      form: { formId: "f", status: "error", fieldErrors: { email: ["Invalid email address"] }, values: { email: "x" } },
    });
    const redirect = expectRedirect(response);
    expect(redirect.status).toBe(302);
    expect(redirect.location).toBe("/portfolio#f");
    const { flash } = await readFlash(requestWithCookie("/portfolio", redirect.cookie ?? ""));
    expect(flash.toast).toMatchObject({ title: "Saved", description: "All good", variant: "default", duration: 8000 });
    expect(flash.toast?.id).toEqual(expect.any(String));
    expect(flash.form).toEqual({
      formId: "f",
      status: "error",
      fieldErrors: { email: ["Invalid email address"] },
      values: { email: "x" },
    });
  });

  it("keep extra headers given to the redirect", async () => {
    const response = await redirectWithFlash("/", { toast: { title: "Hi" } }, { headers: { "X-Test": "1" } });
    expect(response.headers.get("X-Test")).toBe("1");
    expect(response.headers.get("Set-Cookie")).toMatch(/^lr_flash=/);
  });

  it("are empty without a cookie", async () => {
    const { flash, setCookie } = await readFlash(new Request("http://localhost:3000/"));
    expect(flash).toEqual({ toast: null, form: null });
    expect(setCookie).toBeNull();
  });

  it("ignore a tampered cookie", async () => {
    const redirect = expectRedirect(await redirectWithFlash("/", { toast: { title: "Genuine" } }));
    const [name, value] = (redirect.cookie ?? "").split("=") as [string, string];
    const [payload, signature] = decodeURIComponent(value).split(".") as [string, string];
    // The forgery has the genuine cookie's shape, so only the signature check can refuse it.
    expect(JSON.parse(Buffer.from(payload, "base64").toString("utf8"))).toHaveProperty("__flash_toast__");
    const forgedPayload = Buffer.from(
      JSON.stringify({ __flash_toast__: { id: "x", title: "Forged", variant: "default" } }),
    ).toString("base64");
    expect(forgedPayload).not.toBe(payload);
    const forged = `${name}=${encodeURIComponent(`${forgedPayload}.${signature}`)}`;
    const { flash } = await readFlash(requestWithCookie("/", forged));
    expect(flash.toast).toBeNull();
  });
});
