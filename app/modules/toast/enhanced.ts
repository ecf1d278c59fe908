/** The hidden field that enhanced (JavaScript) forms add, so an action answers data instead of redirecting. */
export const ENHANCED_FIELD = "_enhanced";

export function isEnhanced(formData: FormData): boolean {
  return formData.get(ENHANCED_FIELD) === "1";
}
