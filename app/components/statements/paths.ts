/** Where the investor's statements live, and a document's download (the documents' own route, its access rule). */
export const LP_STATEMENTS_PATH = "/lp/statements";
export const statementPath = (id: string) => `${LP_STATEMENTS_PATH}/${encodeURIComponent(id)}`;
export const documentDownloadPath = (documentId: string) => `/api/documents/${encodeURIComponent(documentId)}/download`;
