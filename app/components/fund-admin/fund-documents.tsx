import { fundAdminCopy, fundUploadFormCopy, publishedFundDocumentsCopy } from "~/content/fund-admin";
import { ADMIN_PATHS } from "~/modules/admin/paths";
import { FUND_IDS, isFundId, type FundId } from "~/modules/fund-access/constants";
import { useFormFlash } from "../ui/use-form-flash";
import type { DeleteSettings } from "../documents/delete-document";
import { UploadField } from "../documents/upload-form";
import { inputClass } from "../ui/form";

/** The fund access page's intent for deleting a fund document (posted with documentId), also the confirm step's query value. */
export const DELETE_FUND_DOCUMENT_INTENT = "delete-fund-document";
/** The fund upload form's section id (the no-JavaScript error redirect comes back to it). */
export const FUND_UPLOAD_ANCHOR = "upload-fund-document";
/** The section ids of the published panels, one per fund. */
export const publishedFundSectionId = (fundId: FundId) => `published-${fundId}-documents`;

/** The funds' panels in the order shown: Fund II (the active fund) first. */
export const PANEL_FUNDS: readonly FundId[] = ["fund-ii", "fund-i"];

/**
 * A fund panel's delete, with JavaScript and through the confirm step. Each
 * panel has its own fetcher, so only that panel shows the answer's toast.
 */
export function fundDeleteSettings(fundId: FundId): DeleteSettings {
  const copy = publishedFundDocumentsCopy[fundId];
  return {
    intent: DELETE_FUND_DOCUMENT_INTENT,
    confirmParam: DELETE_FUND_DOCUMENT_INTENT,
    fetcherKey: `delete-${fundId}-document`,
    question: copy.confirmDelete,
    pageAction: ADMIN_PATHS["fund-access"],
    cancelHref: `${ADMIN_PATHS["fund-access"]}#${publishedFundSectionId(fundId)}`,
    label: copy.delete,
    pendingLabel: copy.deleting,
    confirmButton: copy.confirmButton,
    cancel: copy.cancel,
    gone: copy.documentGone,
  };
}

export const fundViewPath = (id: string) => `/api/fund-documents/view/${id}`;

/**
 * The upload form's Fund select (SPEC.md §5: fund-i or fund-ii, default
 * fund-ii). After a refused no-JavaScript upload it shows the fund chosen.
 */
export function FundSelect({ formId, errors }: { formId: string; errors: string[] | undefined }) {
  const flash = useFormFlash(formId, "error");
  const typed = flash?.values?.fundId;
  return (
    <UploadField formId={formId} name="fundId" label={fundUploadFormCopy.fundLabel} errors={errors}>
      {(p) => (
        <select {...p} defaultValue={isFundId(typed) ? typed : "fund-ii"} className={inputClass}>
          {FUND_IDS.map((fundId) => (
            <option key={fundId} value={fundId}>
              {fundAdminCopy.fundNames[fundId]}
            </option>
          ))}
        </select>
      )}
    </UploadField>
  );
}
