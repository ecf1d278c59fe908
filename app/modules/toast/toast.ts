import { z } from "~/modules/validation/z";

/** A notification, as shown by the Toaster (SPEC.md §2, §9). */
export const Toast = z.object({
  id: z.string().default(() => Math.random().toString(36).slice(2)),
  title: z.string(),
  description: z.string().optional(),
  variant: z.enum(["default", "destructive"]).default("default"),
  /** Milliseconds; 5000 unless a spec text says otherwise. */
  duration: z.number().int().positive().optional(),
});
export type Toast = z.infer<typeof Toast>;
export type ToastInput = z.input<typeof Toast>;

/** The outcome of a form that posted without JavaScript, carried to the next page. */
export const FormFlash = z.object({
  formId: z.string(),
  status: z.enum(["success", "error"]),
  message: z.string().optional(),
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  values: z.record(z.string(), z.string()).optional(),
  /** What else the form shows after the redirect (e.g. 'confirmationRequired': the sign-in's offer to send the link again). */
  flags: z.array(z.string().max(40)).max(5).optional(),
});
export type FormFlash = z.infer<typeof FormFlash>;
