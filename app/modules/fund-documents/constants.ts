/** Fund document constants shared by the server and the forms (zod-free). */

/** The form id under which the no-JavaScript fund upload outcome comes back (form flash). */
export const FUND_UPLOAD_FORM_ID = "fund-upload";
