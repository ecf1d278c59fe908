import { Copy } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "~/components/ui/toast-store";
import { useHydrated } from "~/components/ui/use-hydrated";
import { emailListsCopy, emailListToasts } from "~/content/email-lists";
import { exportFileName, exportHref } from "~/modules/email-lists/export";
import { LISTS, type ListFilter, type ListKey, type SortState } from "~/modules/email-lists/lists";

/** Saves a file in the browser: a link with `download`, clicked and removed. */
function saveFile(href: string, fileName: string) {
  const link = document.createElement("a");
  link.href = href;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/**
 * When the clipboard fails, the same rows download instead (DESIGN.md §3):
 * the text already fetched as a `.tsv` file, else the list's CSV export.
 */
function downloadInstead(list: ListKey, sort: SortState, filter: ListFilter, text: string | null) {
  if (text === null) {
    saveFile(exportHref(list, "csv", sort, filter), "");
    return;
  }
  const url = URL.createObjectURL(new Blob([text], { type: "text/tab-separated-values;charset=utf-8" }));
  saveFile(url, exportFileName(list, "tsv", new Date()));
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The whole list as tab-separated text, in the table's order (never a login page or an error page). */
async function fetchRows(list: ListKey, sort: SortState, filter: ListFilter): Promise<string> {
  const response = await fetch(exportHref(list, "tsv", sort, filter), { headers: { Accept: "text/tab-separated-values, text/plain" } });
  const type = response.headers.get("Content-Type") ?? "";
  if (!response.ok || response.redirected || type.includes("html")) throw new Error(`Export failed (${response.status})`);
  return response.text();
}

/**
 * 'Copy All' (SPEC.md §2): copies every row of a list, tab-separated, in the
 * order shown, and says so in a toast; on failure a 'Failed to copy' toast
 * and a download of the same rows. It needs JavaScript, so it shows only
 * once the page is hydrated ('Download CSV' works without).
 */
export function CopyAllButton({ list, sort, filter = {} }: { list: ListKey; sort: SortState; filter?: ListFilter }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  if (!hydrated) return null;
  const { label } = LISTS[list];

  async function copy() {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    let text: string | null = null;
    try {
      text = await fetchRows(list, sort, filter);
      if (!navigator.clipboard) throw new Error("Clipboard unavailable");
      await navigator.clipboard.writeText(text);
      toast(emailListToasts.copied(label));
    } catch (error) {
      console.error(error);
      toast({ ...emailListToasts.copyFailed });
      downloadInstead(list, sort, filter, text);
    } finally {
      running.current = false;
      setBusy(false);
    }
  }

  return (
    <button
      type="button"
      onClick={copy}
      aria-disabled={busy || undefined}
      className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-50 aria-disabled:cursor-wait aria-disabled:opacity-70 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
    >
      <Copy aria-hidden="true" className="size-4" />
      {emailListsCopy.copyAll}
      <span className="sr-only">{emailListsCopy.controlSuffix(label)}</span>
    </button>
  );
}
