import { useEffect, useState, type FormEvent } from "react";

type ValidityMessages = Partial<Record<"valueMissing" | "typeMismatch" | "tooLong", string>>;
export type FieldMessages = Record<string, ValidityMessages>;
export type FieldErrors = Record<string, string[] | null | undefined>;

type Control = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

function isControl(el: Element): el is Control {
  return el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;
}

/**
 * Field errors for a server-validated form. Before posting, the browser's own
 * constraint checks (required, type=email/url, maxlength) are turned into the
 * form's wording, so there is no validation library in the page's JavaScript;
 * the server's zod schema stays the authority. A field's error clears as soon
 * as it is edited.
 */
export function useFieldErrors(messages: FieldMessages, serverErrors: FieldErrors | undefined) {
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [edited, setEdited] = useState<Set<string>>(new Set());

  // A new server answer shows all of its errors again.
  useEffect(() => {
    setEdited(new Set());
    setClientErrors({});
  }, [serverErrors]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const found: FieldErrors = {};
    let first: Control | null = null;
    for (const el of Array.from(event.currentTarget.elements)) {
      if (!isControl(el) || !el.name || !messages[el.name]) continue;
      const m = messages[el.name]!;
      const v = el.validity;
      const blank = el.required && el.value.trim() === "";
      const message = v.valueMissing || blank ? m.valueMissing : v.typeMismatch ? m.typeMismatch : v.tooLong ? m.tooLong : undefined;
      if (message) {
        found[el.name] = [message];
        first ??= el;
      }
    }
    setClientErrors(found);
    if (first) {
      event.preventDefault();
      first.focus();
    }
  };

  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const target = event.target;
    if (!(target instanceof Element) || !isControl(target) || !target.name) return;
    const name = target.name;
    setClientErrors((prev) => (prev[name] ? { ...prev, [name]: undefined } : prev));
    setEdited((prev) => (prev.has(name) ? prev : new Set(prev).add(name)));
  };

  const errorsFor = (name: string): string[] | undefined =>
    clientErrors[name] ?? (edited.has(name) ? undefined : serverErrors?.[name] ?? undefined);

  return { onSubmit, onInput, errorsFor };
}
