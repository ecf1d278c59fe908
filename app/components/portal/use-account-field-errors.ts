import { useState, type FormEvent } from "react";
import { useFieldErrors, type FieldErrors, type FieldMessages } from "../ui/use-field-errors";

import { PASSWORD_MAX_BYTES, PASSWORD_MIN } from "~/modules/lp-users/constants";

type PasswordRule = { field: string; tooShort: string; tooLong: string };

/**
 * useFieldErrors plus the password rules the browser's constraint checks do
 * not word for us: at least 8 characters, at most 72 bytes. (A maxlength
 * attribute would silently cut a pasted password; we never truncate.)
 */
export function useAccountFieldErrors(
  messages: FieldMessages,
  serverErrors: FieldErrors | undefined,
  password?: PasswordRule,
) {
  const base = useFieldErrors(messages, serverErrors);
  const [extra, setExtra] = useState<FieldErrors>({});

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setExtra({});
    base.onSubmit(event);
    if (!password) return;
    // Apply the password rule even when an earlier field already stopped the submit, so every error shows at once.
    const blocked = event.defaultPrevented;
    const input = event.currentTarget.elements.namedItem(password.field);
    if (!(input instanceof HTMLInputElement) || input.value === "") return;
    const message =
      input.value.length < PASSWORD_MIN
        ? password.tooShort
        : new TextEncoder().encode(input.value).byteLength > PASSWORD_MAX_BYTES
          ? password.tooLong
          : undefined;
    if (message) {
      event.preventDefault();
      setExtra({ [password.field]: [message] });
      if (!blocked) input.focus();
    }
  };

  const onInput = (event: FormEvent<HTMLFormElement>) => {
    base.onInput(event);
    const target = event.target;
    if (target instanceof HTMLInputElement && extra[target.name]) setExtra((prev) => ({ ...prev, [target.name]: undefined }));
  };

  const errorsFor = (name: string): string[] | undefined => extra[name] ?? base.errorsFor(name);

  return { onSubmit, onInput, errorsFor };
}
