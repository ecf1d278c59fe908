import { getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from "@conform-to/react";
import { LoaderCircle, Upload } from "lucide-react";
import type { ComponentProps, MouseEvent, ReactNode } from "react";
import { useNavigation } from "react-router";
import { kitCopy } from "~/content/kit";
import { buttonClass, inputClass, Label, type ButtonVariant } from "../ui/form";

/**
 * The workspaces' form fields (DESIGN.md §2): a label, the control, a hint and the
 * errors, with id, aria-invalid and aria-describedby wired here and nowhere else.
 *
 * Either a Conform field drives one (`meta={fields.title}`: its id, name, errors,
 * default value and constraints through Conform's getInputProps / getSelectProps /
 * getTextareaProps), or plain props do (`id`, `name`, `errors`, and any attribute of
 * the control). Plain props win over what the metadata gives. The controls are
 * plain form controls, so a form posts them without JavaScript.
 */
type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;

type FieldFrame = {
  label: ReactNode;
  hint?: ReactNode;
  /** The messages to show (the first one shows); from `meta.errors` when not given. */
  errors?: readonly string[] | null | undefined;
  /** A Conform field: id, name, errors, default value and constraints. */
  meta?: Meta;
  /** The wrapper's classes (e.g. a grid column span). */
  className?: string;
};

/** The ids a control points to and its aria attributes, from its id, hint and errors (and ids of its own to keep). */
export function fieldAria({
  id,
  hint,
  errors,
  describedBy,
  hintId = `${id}-hint`,
  errorId = `${id}-error`,
}: {
  id: string;
  hint?: unknown;
  errors?: readonly string[] | null | undefined;
  /** More ids the control is described by (e.g. the row's name), first. */
  describedBy?: string | undefined;
  hintId?: string;
  errorId?: string;
}) {
  const invalid = Boolean(errors?.length);
  const ids = [...(describedBy?.split(/\s+/) ?? []), hint ? hintId : null, invalid ? errorId : null].filter((x): x is string => Boolean(x));
  return {
    hintId,
    errorId,
    control: { id, "aria-invalid": invalid || undefined, "aria-describedby": [...new Set(ids)].join(" ") || undefined },
  };
}

/** Conform's props for a control, less its `key` (React's, not the element's) and its own aria attributes (wired here). */
function fromMeta<T extends { key?: unknown; "aria-invalid"?: unknown; "aria-describedby"?: unknown }>(props: T) {
  const { key: _key, "aria-invalid": _invalid, "aria-describedby": _describedBy, ...rest } = props;
  return rest;
}

/** The ids and messages of a field, from plain props or its Conform metadata. */
function resolve(meta: Meta | undefined, id: string | undefined, name: string | undefined, errors: FieldFrame["errors"]) {
  const fieldId = id ?? meta?.id ?? name;
  if (!fieldId) throw new Error("A field needs an id, a name or Conform metadata");
  const ids = meta && !id ? { hintId: meta.descriptionId, errorId: meta.errorId } : {};
  return { fieldId, errors: errors ?? meta?.errors, ids };
}

/** A field's messages: the first one, announced, under the id the control points to. */
export function ErrorList({ id, errors, className = "" }: { id: string; errors?: readonly string[] | null | undefined; className?: string }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className={`mt-1 text-sm font-medium text-red-700 dark:text-red-400 ${className}`} role="alert">
      {errors[0]}
    </p>
  );
}

export function Hint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="mt-1 text-xs text-slate-600 dark:text-slate-300">
      {children}
    </p>
  );
}

type InputFieldProps = FieldFrame &
  Omit<ComponentProps<"input">, "id" | "name" | "children" | "className"> & {
    id?: string;
    name?: string;
    inputClassName?: string;
    /** The label's own classes (e.g. `sr-only` where the placeholder and the button say enough to the eye). */
    labelClassName?: string;
    /** Beside the control, on its line (e.g. its own submit button). */
    end?: ReactNode;
    /** The classes of the line the control and `end` share. */
    endClassName?: string;
  };

/** A labelled text-like input (text, search, email, date…), its hint and its message. */
export function Field({
  label,
  hint,
  errors,
  meta,
  className,
  id,
  name,
  inputClassName = "",
  labelClassName,
  end,
  endClassName = "flex gap-2",
  type = "text",
  ...rest
}: InputFieldProps) {
  const r = resolve(meta, id, name, errors);
  const base = meta ? fromMeta(getInputProps(meta, { type: type as "text" })) : {};
  const a = fieldAria({ id: r.fieldId, hint, errors: r.errors, describedBy: rest["aria-describedby"], ...r.ids });
  const input = <input {...base} name={name ?? meta?.name} {...rest} type={type} {...a.control} className={`${inputClass} ${inputClassName}`} />;
  return (
    <div className={className}>
      <Label htmlFor={r.fieldId} className={labelClassName}>
        {label}
      </Label>
      {end ? (
        <div className={endClassName}>
          {input}
          {end}
        </div>
      ) : (
        input
      )}
      {hint ? <Hint id={a.hintId}>{hint}</Hint> : null}
      <ErrorList id={a.errorId} errors={r.errors} />
    </div>
  );
}

type TextareaFieldProps = FieldFrame &
  Omit<ComponentProps<"textarea">, "id" | "name" | "children" | "className"> & { id?: string; name?: string; inputClassName?: string };

/** A labelled multi-line text, its hint and its message. */
export function TextareaField({ label, hint, errors, meta, className, id, name, inputClassName = "", ...rest }: TextareaFieldProps) {
  const r = resolve(meta, id, name, errors);
  const base = meta ? fromMeta(getTextareaProps(meta)) : {};
  const a = fieldAria({ id: r.fieldId, hint, errors: r.errors, describedBy: rest["aria-describedby"], ...r.ids });
  return (
    <div className={className}>
      <Label htmlFor={r.fieldId}>{label}</Label>
      <textarea {...base} name={name ?? meta?.name} {...rest} {...a.control} className={`${inputClass} ${inputClassName}`} />
      {hint ? <Hint id={a.hintId}>{hint}</Hint> : null}
      <ErrorList id={a.errorId} errors={r.errors} />
    </div>
  );
}

type SelectFieldProps = FieldFrame &
  Omit<ComponentProps<"select">, "id" | "name" | "className"> & { id?: string; name?: string; inputClassName?: string };

/** A labelled select (its options as children), its hint and its message. */
export function SelectField({ label, hint, errors, meta, className, id, name, inputClassName = "", children, ...rest }: SelectFieldProps) {
  const r = resolve(meta, id, name, errors);
  const base = meta ? fromMeta(getSelectProps(meta)) : {};
  const a = fieldAria({ id: r.fieldId, hint, errors: r.errors, describedBy: rest["aria-describedby"], ...r.ids });
  return (
    <div className={className}>
      <Label htmlFor={r.fieldId}>{label}</Label>
      <select {...base} name={name ?? meta?.name} {...rest} {...a.control} className={`${inputClass} ${inputClassName}`}>
        {children}
      </select>
      {hint ? <Hint id={a.hintId}>{hint}</Hint> : null}
      <ErrorList id={a.errorId} errors={r.errors} />
    </div>
  );
}

type CheckboxFieldProps = FieldFrame & Omit<ComponentProps<"input">, "id" | "name" | "type" | "children" | "className"> & { id?: string; name?: string };

/** A checkbox with its label beside it, the hint under the label, and its message. */
export function CheckboxField({ label, hint, errors, meta, className, id, name, value = "on", ...rest }: CheckboxFieldProps) {
  const r = resolve(meta, id, name, errors);
  const base = meta ? fromMeta(getInputProps(meta, { type: "checkbox", value: typeof value === "string" ? value : "on" })) : {};
  const a = fieldAria({ id: r.fieldId, hint, errors: r.errors, describedBy: rest["aria-describedby"], ...r.ids });
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          {...base}
          name={name ?? meta?.name}
          value={value}
          {...rest}
          type="checkbox"
          {...a.control}
          className="mt-0.5 size-4 shrink-0 rounded border-slate-400 accent-brand-600 focus:outline-2 focus:outline-brand-500"
        />
        <div>
          <label htmlFor={r.fieldId} className="block text-sm font-medium">
            {label}
          </label>
          {hint ? (
            <p id={a.hintId} className="text-xs text-slate-600 dark:text-slate-300">
              {hint}
            </p>
          ) : null}
        </div>
      </div>
      <ErrorList id={a.errorId} errors={r.errors} />
    </div>
  );
}

type FileFieldProps = FieldFrame & Omit<ComponentProps<"input">, "id" | "name" | "type" | "children" | "className"> & { id?: string; name?: string };

/**
 * A file picker that looks like the rest of the kit: a 'Choose a file' button and the
 * chosen file's name, instead of the browser's bare button. The native input stays
 * (the button is a second label of it, hidden from assistive technology; the browser's
 * own button is hidden and its text shows the chosen file's name), so it works, is
 * focusable and is named by the field's label alone (aria-labelledby) with or without
 * JavaScript.
 */
export function FileField({ label, hint, errors, meta, className, id, name, ...rest }: FileFieldProps) {
  const r = resolve(meta, id, name, errors);
  const base = meta ? fromMeta(getInputProps(meta, { type: "file" })) : {};
  const a = fieldAria({ id: r.fieldId, hint, errors: r.errors, describedBy: rest["aria-describedby"], ...r.ids });
  const labelId = `${r.fieldId}-label`;
  return (
    <div className={className}>
      <Label id={labelId} htmlFor={r.fieldId}>
        {label}
      </Label>
      <div
        data-testid="file-picker"
        className="flex min-w-0 items-center gap-3 rounded-md border border-dashed border-slate-300 bg-white p-2 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 has-[[aria-invalid=true]]:border-red-600 dark:border-slate-600 dark:bg-slate-900"
      >
        {/* A click on it opens the picker (also without JavaScript); hidden from assistive technology, which reaches the input itself. */}
        <label htmlFor={r.fieldId} aria-hidden="true" className={buttonClass("secondary", "shrink-0 cursor-pointer px-3 py-1.5")}>
          <Upload aria-hidden="true" className="size-4" />
          {kitCopy.chooseFile}
        </label>
        <input
          {...base}
          name={name ?? meta?.name}
          {...rest}
          type="file"
          {...a.control}
          aria-labelledby={labelId}
          className="w-full min-w-0 cursor-pointer truncate text-sm text-slate-700 file:hidden focus:outline-none dark:text-slate-200"
        />
      </div>
      {hint ? <Hint id={a.hintId}>{hint}</Hint> : null}
      <ErrorList id={a.errorId} errors={r.errors} />
    </div>
  );
}

/** A class list with each class once (a variant may bring a class the button adds too). */
const oneEach = (classes: string) => [...new Set(classes.split(/\s+/).filter(Boolean))].join(" ");

/**
 * A submit button with its pending state: while its form (or fetcher) is sending it
 * shows a spinner and `pendingLabel`, and is aria-disabled (a second click does nothing;
 * it stays focusable and named). `pending` defaults to the page's navigation submitting.
 */
export function StatusButton({
  pending,
  pendingLabel = kitCopy.saving,
  variant = "primary",
  className = "",
  children,
  onClick,
  type = "submit",
  ...props
}: Omit<ComponentProps<"button">, "disabled"> & { pending?: boolean; pendingLabel?: ReactNode; variant?: ButtonVariant }) {
  const navigation = useNavigation();
  const busy = pending ?? navigation.state === "submitting";
  const click = (event: MouseEvent<HTMLButtonElement>) => {
    if (busy) return event.preventDefault();
    onClick?.(event);
  };
  return (
    <button
      type={type}
      {...props}
      onClick={click}
      aria-disabled={busy || undefined}
      className={oneEach(buttonClass(variant, `aria-disabled:cursor-not-allowed aria-disabled:opacity-70 ${className}`))}
    >
      {busy ? <LoaderCircle aria-hidden="true" className="size-4 animate-spin" /> : null}
      {busy ? pendingLabel : children}
    </button>
  );
}
