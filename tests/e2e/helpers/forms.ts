import { expect, type Locator, type Page } from "@playwright/test";
import { footer, main } from "./site";

/** The newsletter form in the home hero ('Stay Updated'), or the footer's. */
export function newsletterForm(page: Page, where: "hero" | "footer") {
  const scope = where === "hero" ? main(page) : footer(page);
  return {
    email: scope.getByRole("textbox", { name: /email/i }),
    submit: scope.getByRole("button", { name: /^(Subscribe|Subscribing\.\.\.)$/ }),
    // Double opt-in: the address is on the list only once the e-mailed link is confirmed.
    thanks: scope.getByText("Thank you! Please check your inbox and confirm your subscription.", { exact: true }),
  };
}

/** The 'Submit Your Pitch' form on /process. */
export function pitchForm(page: Page) {
  const region = main(page).getByRole("region", { name: "Submit Your Pitch" });
  return {
    region,
    name: region.getByLabel(/^name/i),
    email: region.getByLabel(/^email/i),
    company: region.getByLabel(/^company/i),
    stage: region.getByLabel(/^stage/i),
    deckUrl: region.getByLabel(/deck URL/i),
    deck: region.getByLabel(/^Pitch deck \(PDF/),
    /** The spam trap people never see (off-screen, out of the tab order and the accessibility tree). */
    honeypot: region.locator('input[name="website"]'),
    message: region.getByLabel(/tell us|message/i),
    submit: region.getByRole("button", { name: /^(Submit Pitch|Submitting\.\.\.)$/ }),
    thanks: region.getByRole("heading", { name: "Thank You for Submitting!" }),
    again: region.getByRole("button", { name: "Submit Another Pitch" }).or(
      region.getByRole("link", { name: "Submit Another Pitch" }),
    ),
  };
}

export type PitchValues = {
  name: string;
  email: string;
  company: string;
  stage: string;
  deckUrl: string;
  message: string;
};

export async function fillPitch(form: ReturnType<typeof pitchForm>, values: PitchValues) {
  await form.name.fill(values.name);
  await form.email.fill(values.email);
  await form.company.fill(values.company);
  await form.stage.selectOption(values.stage);
  await form.deckUrl.fill(values.deckUrl);
  await form.message.fill(values.message);
}

/**
 * Hold every POST whose path starts with `prefix` until the returned function
 * is called, so a pending state ('Subscribing...', 'Submitting...') can be
 * asserted without racing the server.
 */
export async function holdPosts(page: Page, prefix: string): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith(prefix),
    async (route) => {
      if (route.request().method() === "POST") await gate;
      await route.fallback();
    },
  );
  return release;
}

/** Record the non-GET requests a page makes (to prove a form sent nothing). */
export function recordWrites(page: Page): string[] {
  const writes: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET" && request.method() !== "HEAD") writes.push(`${request.method()} ${request.url()}`);
  });
  return writes;
}

/**
 * With JavaScript: click `button`, answer the browser's confirm dialog it opens
 * (accept or dismiss), and expect that dialog to be a confirm asking `question`.
 */
export async function clickAndAnswerConfirm(page: Page, button: Locator, question: string, answer: "accept" | "dismiss") {
  let asked: { type: string; message: string } | undefined;
  page.once("dialog", async (dialog) => {
    asked = { type: dialog.type(), message: dialog.message() };
    await (answer === "accept" ? dialog.accept() : dialog.dismiss());
  });
  await button.click();
  await expect.poll(() => asked).toEqual({ type: "confirm", message: question });
}
