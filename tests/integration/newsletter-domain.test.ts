import { beforeEach, describe, expect, it } from "vitest";
import { AppError } from "~/modules/http/app-error";
import { subscribeToNewsletter } from "~/modules/newsletter/newsletter.server";
import { NewsletterInput } from "~/modules/newsletter/schema";
import { allSubscribers, clearTables } from "../helpers/db";

const subscribe = (email: string) => subscribeToNewsletter(NewsletterInput.parse({ email }));

beforeEach(() => clearTables());

describe("subscribeToNewsletter", () => {
  it("stores the address lower-cased and trimmed and returns the subscription", () => {
    const before = Date.now();
    const subscription = subscribe("  Grace.Hopper@Navy.EXAMPLE ");
    expect(subscription.email).toBe("grace.hopper@navy.example");
    expect(subscription.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(subscription.createdAt).toBeInstanceOf(Date);
    expect(subscription.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

    const rows = allSubscribers();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: subscription.id, email: "grace.hopper@navy.example" });
  });

  it.each(["grace@navy.example", "GRACE@NAVY.EXAMPLE", "  Grace@Navy.example\t"])(
    "refuses a second subscription of the same address written as %j with a conflict",
    (again) => {
      subscribe("grace@navy.example");
      let caught: unknown;
      try {
        subscribe(again);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).code).toBe("conflict");
      expect((caught as AppError).status).toBe(409);
      expect((caught as AppError).message).toContain("Email already subscribed");
      expect(allSubscribers()).toHaveLength(1);
    },
  );

  it("keeps different addresses apart", () => {
    subscribe("a@lumenridge.example");
    subscribe("b@lumenridge.example");
    expect(allSubscribers().map((r) => r.email).sort()).toEqual(["a@lumenridge.example", "b@lumenridge.example"]);
  });
});
