import { useForm } from "@conform-to/react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { CheckboxField, Field, FileField, SelectField, StatusButton, TextareaField } from "~/components/kit/fields";
import { kitCopy } from "~/content/kit";

/** Server-renders `element` on a route (the fields read the router's navigation). */
function render(element: React.ReactNode): string {
  const Stub = createRoutesStub([{ path: "/", Component: () => <form method="post">{element}</form> }]);
  return renderToString(<Stub initialEntries={["/"]} />);
}

type Tag = { name: string; attrs: Map<string, string>; text: string };

/** The elements of `html` (no DOM here: server HTML is regular enough), each with its attributes and text. */
function tags(html: string): Tag[] {
  const found: Tag[] = [];
  for (const m of html.matchAll(/<(\w+)((?:\s+[\w:-]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attrs = new Map([...m[2]!.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map((a) => [a[1]!, a[2] ?? ""]));
    const rest = html.slice(m.index + m[0].length);
    const close = rest.indexOf(`</${m[1]}>`);
    const text = close < 0 ? "" : rest.slice(0, close).replace(/<[^>]*>/g, "").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
    found.push({ name: m[1]!, attrs, text });
  }
  return found;
}

function one(html: string, test: (tag: Tag) => boolean): Tag {
  const tag = tags(html).find(test);
  if (!tag) throw new Error("no such element");
  return tag;
}

const byName = (element: string, name: string) => (t: Tag) => t.name === element && t.attrs.get("name") === name;
const labelsFor = (html: string, id: string) => tags(html).filter((t) => t.name === "label" && t.attrs.get("for") === id).map((t) => t.text);

/** The texts a control's aria-describedby points at, in order. */
function described(html: string, control: Tag): string[] {
  const ids = (control.attrs.get("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => tags(html).find((t) => t.attrs.get("id") === id)?.text ?? `missing #${id}`);
}

describe("the kit's fields", () => {
  it("a field with a hint and an error: label for the input, aria-invalid, described by the hint and the message", () => {
    const html = render(<Field id="f-title" name="title" label="Title" hint="At most 200 characters." errors={["Enter a title."]} />);
    const input = one(html, byName("input", "title"));
    expect(input.attrs.get("id")).toBe("f-title");
    expect(labelsFor(html, "f-title")).toEqual(["Title"]);
    expect(input.attrs.get("aria-invalid")).toBe("true");
    expect(described(html, input)).toEqual(["At most 200 characters.", "Enter a title."]);
    expect(one(html, (t) => t.attrs.get("role") === "alert").text).toBe("Enter a title.");
  });

  it("without errors: no aria-invalid, no message, described by the hint only; an own description comes first", () => {
    const html = render(
      <>
        <p id="whose">Ada Lovelace</p>
        <Field id="code" name="code" label="Code" hint="Letters and digits." aria-describedby="whose" />
      </>,
    );
    const input = one(html, byName("input", "code"));
    expect(input.attrs.has("aria-invalid")).toBe(false);
    expect(described(html, input)).toEqual(["Ada Lovelace", "Letters and digits."]);
    expect(html).not.toContain('role="alert"');
  });

  it("a field with its button on its line and a visually hidden label: still labelled, the message under the line", () => {
    const html = render(
      <Field
        id="nl-email"
        name="email"
        type="email"
        label="Email address"
        labelClassName="sr-only"
        errors={["Invalid email address"]}
        endClassName="flex flex-col gap-2 sm:flex-row"
        end={<button type="submit">Subscribe</button>}
      />,
    );
    const input = one(html, byName("input", "email"));
    expect(labelsFor(html, "nl-email")).toEqual(["Email address"]);
    expect(one(html, (t) => t.name === "label").attrs.get("class")).toContain("sr-only");
    expect(one(html, (t) => t.name === "div" && t.attrs.get("class") === "flex flex-col gap-2 sm:flex-row").text).toBe("Subscribe");
    expect(described(html, input)).toEqual(["Invalid email address"]);
  });

  it("select, textarea and checkbox wire the same way; a field without a hint points at its message only", () => {
    const html = render(
      <>
        <SelectField id="s" name="status" label="Status" errors={["Choose a status."]}>
          <option value="new">New</option>
        </SelectField>
        <TextareaField id="t" name="note" label="Note" hint="Only admins see it." />
        <CheckboxField id="c" name="watermark" label="Watermark" hint="Each copy carries the name." errors={["Not allowed."]} />
      </>,
    );
    const select = one(html, byName("select", "status"));
    expect(select.attrs.get("aria-invalid")).toBe("true");
    expect(described(html, select)).toEqual(["Choose a status."]);
    expect(labelsFor(html, "s")).toEqual(["Status"]);
    const textarea = one(html, byName("textarea", "note"));
    expect(textarea.attrs.get("id")).toBe("t");
    expect(textarea.attrs.has("aria-invalid")).toBe(false);
    expect(described(html, textarea)).toEqual(["Only admins see it."]);
    const box = one(html, byName("input", "watermark"));
    expect(box.attrs.get("type")).toBe("checkbox");
    expect(box.attrs.get("value")).toBe("on");
    expect(labelsFor(html, "c")).toEqual(["Watermark"]);
    expect(box.attrs.get("aria-invalid")).toBe("true");
    expect(described(html, box)).toEqual(["Each copy carries the name.", "Not allowed."]);
  });

  it("the file picker: the native input stays, named by the field's label alone, with the kit's button and no bare browser button", () => {
    const html = render(<FileField id="up-file" name="file" label="File" hint="PDF, at most 50 MB." errors={["Choose a file."]} required />);
    const input = one(html, byName("input", "file"));
    expect(input.attrs.get("type")).toBe("file");
    expect(one(html, (t) => t.attrs.get("id") === input.attrs.get("aria-labelledby")).text).toBe("File");
    expect(input.attrs.get("aria-invalid")).toBe("true");
    expect(described(html, input)).toEqual(["PDF, at most 50 MB.", "Choose a file."]);
    // The visible button is a second label of the same input: a click opens the picker without JavaScript.
    expect(labelsFor(html, "up-file")).toEqual(["File", kitCopy.chooseFile]);
    // The browser's own button is hidden; its text (the chosen file's name) stays.
    expect(input.attrs.get("class")).toContain("file:hidden");
  });

  it("a Conform field drives it: id, name, errors and the default value from the metadata", () => {
    function ConformForm() {
      const [form, fields] = useForm<{ title: string; kind: string }>({
        id: "doc",
        defaultValue: { title: "Q3 letter", kind: "report" },
        lastResult: { status: "error", initialValue: { title: "Q3 letter", kind: "report" }, error: { title: ["Too long."] } },
      });
      return (
        <form id={form.id}>
          <Field meta={fields.title} label="Title" hint="Shown to investors." />
          <SelectField meta={fields.kind} label="Kind">
            <option value="letter">Letter</option>
            <option value="report">Report</option>
          </SelectField>
        </form>
      );
    }
    const Stub = createRoutesStub([{ path: "/", Component: ConformForm }]);
    const html = renderToString(<Stub initialEntries={["/"]} />);
    const input = one(html, byName("input", "title"));
    expect(labelsFor(html, input.attrs.get("id")!)).toEqual(["Title"]);
    expect(input.attrs.get("value")).toBe("Q3 letter");
    expect(input.attrs.get("aria-invalid")).toBe("true");
    expect(described(html, input)).toEqual(["Shown to investors.", "Too long."]);
    const select = one(html, byName("select", "kind"));
    expect(labelsFor(html, select.attrs.get("id")!)).toEqual(["Kind"]);
    expect(select.attrs.has("aria-invalid")).toBe(false);
    expect(one(html, (t) => t.name === "option" && t.attrs.has("selected")).attrs.get("value")).toBe("report");
  });

  it("the status button: its label, and while pending a spinner, the pending label and aria-disabled", () => {
    const idle = one(render(<StatusButton pending={false}>Save status</StatusButton>), (t) => t.name === "button");
    expect(idle.text).toBe("Save status");
    expect(idle.attrs.get("type")).toBe("submit");
    expect(idle.attrs.has("aria-disabled")).toBe(false);
    const html = render(
      <StatusButton pending pendingLabel="Saving...">
        Save status
      </StatusButton>,
    );
    const busy = one(html, (t) => t.name === "button");
    expect(busy.text).toBe("Saving...");
    expect(busy.attrs.get("aria-disabled")).toBe("true");
    expect(html).toMatch(/<svg[^>]*animate-spin/);
    // By default it follows the page's navigation: idle here.
    expect(one(render(<StatusButton>Go</StatusButton>), (t) => t.name === "button").attrs.has("aria-disabled")).toBe(false);
  });
});
