import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";
import { PASSWORD_MIN } from "~/modules/lp-users/constants";
import { Field } from "../kit/fields";

type Props = Omit<ComponentProps<"input">, "id" | "name" | "className" | "children"> & {
  formId: string;
  name: string;
  label: string;
  hint?: string | undefined;
  errors?: string[] | undefined;
};

/** The e-mail field every account form starts with. */
export function EmailField(props: Omit<Props, "name" | "type" | "required" | "maxLength" | "autoCapitalize" | "spellCheck">) {
  return (
    <AccountField
      autoComplete="email"
      {...props}
      name="email"
      type="email"
      required
      maxLength={254}
      autoCapitalize="none"
      spellCheck={false}
    />
  );
}

/** A new password (registration, reset): at least 8 characters; never truncated (no maxlength). */
export function NewPasswordField(props: Omit<Props, "name" | "type" | "required" | "minLength" | "autoComplete">) {
  return <AccountField {...props} name="password" type="password" required minLength={PASSWORD_MIN} autoComplete="new-password" />;
}

/** A labelled input of an account form, with its hint and its error (role=alert): the kit's Field wires them. */
export function AccountField({ formId, name, ...field }: Props) {
  return <Field {...field} id={`${formId}-${name}`} name={name} />;
}

/** A form-level error (role=alert) under an account form. */
export function FormAlert({ id, message }: { id?: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p
      id={id}
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
    >
      {message}
    </p>
  );
}

/** A form-level success message (role=status) on the account page. */
export function FormSuccess({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p
      role="status"
      className="mt-3 rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
    >
      {message}
    </p>
  );
}

/** The icon-topped title block of the account cards. */
export function AccountCardHeader({ icon, title, intro }: { icon: ReactNode; title: string; intro: string }) {
  return (
    <div className="flex flex-col items-center text-center">
      <span className="flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700 dark:bg-brand-900 dark:text-brand-200">
        {icon}
      </span>
      <h1 className="mt-4 text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{intro}</p>
    </div>
  );
}

export const textLinkClass =
  "font-medium text-brand-700 underline-offset-4 hover:underline dark:text-brand-300";

/** The link under an account card, set off by a rule (e.g. back to sign-in). */
export function CardFooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="mt-6 border-t border-slate-200 pt-6 text-center text-sm dark:border-slate-800">
      <Link to={to} className={textLinkClass}>
        {children}
      </Link>
    </p>
  );
}
