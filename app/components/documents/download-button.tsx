import { Download } from "lucide-react";
import { useState, type MouseEvent } from "react";
import { documentToasts, investorDocumentsCopy } from "~/content/documents";
import { toast } from "../ui/toast-store";
import { buttonClass } from "../ui/form";
import { useHydrated } from "../ui/use-hydrated";

/** How long the temporary object URL lives after the save click (the browser has taken the blob by then). */
const REVOKE_DELAY_MS = 1000;

function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_DELAY_MS);
}

/**
 * 'Download' for one investor document (SPEC.md §2, §8). Without JavaScript a
 * plain link to the attachment endpoint. Once hydrated, a plain click fetches
 * the file itself so it can say 'Download started' or 'Download failed', then
 * saves the blob under the document's file name. Modified clicks (new tab,
 * save as) keep the browser's own behaviour.
 */
export function DownloadButton({ id, title, fileName }: { id: string; title: string; fileName: string }) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const href = `/api/documents/${encodeURIComponent(id)}/download`;

  async function onClick(event: MouseEvent<HTMLAnchorElement>) {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const response = await fetch(href, { credentials: "include" });
      if (!response.ok) {
        toast({ ...documentToasts.downloadFailed, variant: "destructive" });
        return;
      }
      toast({ ...documentToasts.downloadStarted });
      saveBlob(await response.blob(), fileName);
    } catch {
      toast({ ...documentToasts.downloadFailed, variant: "destructive" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <a
      href={href}
      download={fileName}
      aria-label={investorDocumentsCopy.downloadLabel(title)}
      aria-busy={busy || undefined}
      onClick={hydrated ? onClick : undefined}
      className={buttonClass("primary")}
    >
      <Download aria-hidden="true" className="size-4" />
      {investorDocumentsCopy.download}
    </a>
  );
}
