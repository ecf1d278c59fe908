// Transition only: the admin pages of this branch still import this path (decision 018).
export { FUND_UPLOAD_FORM_ID } from "../documents/constants";
