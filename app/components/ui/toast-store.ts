import { useSyncExternalStore } from "react";
import type { Toast, ToastInput } from "~/modules/toast/toast";

/**
 * A tiny client toast store: at most one toast at a time (SPEC.md §9), the
 * newest replaces the one on screen.
 */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
/** A dismissed toast is removed from memory after this long (SPEC.md §9). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

type ToastState = Toast & { open: boolean };

let toasts: ToastState[] = [];
const listeners = new Set<() => void>();
const seen = new Set<string>();

function emit() {
  for (const listener of listeners) listener();
}

export function toast(input: ToastInput): string {
  const id = input.id ?? Math.random().toString(36).slice(2);
  if (seen.has(id)) return id;
  seen.add(id);
  const next: ToastState = {
    id,
    title: input.title,
    description: input.description,
    variant: input.variant ?? "default",
    duration: input.duration,
    open: true,
  };
  toasts = [next, ...toasts].slice(0, TOAST_LIMIT);
  emit();
  return id;
}

export function dismissToast(id: string) {
  toasts = toasts.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  setTimeout(() => {
    toasts = toasts.filter((t) => t.id !== id || t.open);
    emit();
  }, TOAST_REMOVE_DELAY_MS);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const empty: ToastState[] = [];

export function useToasts(): ToastState[] {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => empty,
  );
}
