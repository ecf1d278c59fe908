// Transition only: the admin pages and bench/ of this branch still import these names; the fund
// documents live in ~/modules/documents/documents.server (fundDocuments). Removed with them (decision 018).
import type { LpUser } from "../auth/session.server";
import { fundDocuments, type FundDocumentRow } from "../documents/documents.server";
import type { FundId } from "../fund-access/constants";

export const listFundDocuments = (fundId: FundId): FundDocumentRow[] => fundDocuments.list(fundId);
export const uploadFundDocument = (admin: LpUser, request: Request): Promise<FundDocumentRow> => fundDocuments.upload(admin, request);
export const deleteFundDocument = (admin: LpUser, id: string): Promise<FundDocumentRow> => fundDocuments.delete(admin, id);
