/** Where a List-Unsubscribe link points; the token goes in `?token=`, which request logs mask. Zod-free: the page's route module imports it in the browser (decision 032). */
export const UNSUBSCRIBE_PATH = "/unsubscribe/documents";
