import { INVESTOR_QUERY_PARAM, SEARCH_MARKER, type AudienceState } from "~/components/documents/audience-fields";
import type { Audience } from "~/modules/documents/constants";
import { recipientChoices } from "~/modules/documents/recipients.server";
import { cleanInvestorQuery } from "~/modules/lp-users/investor-search";

/**
 * The audience picker's state for a page: after a search inside the form
 * (`_search` in the query) what the admin had chosen and typed, else
 * `saved` (a new upload's defaults, or a document's current audience).
 */
export function audienceState(
  params: URLSearchParams,
  saved: { audience: Audience; watermark: boolean; recipientIds: readonly string[] },
): AudienceState {
  const searched = params.has(SEARCH_MARKER);
  const audience = searched ? (params.get("audience") === "selected" ? "selected" : "all") : saved.audience;
  const watermark = searched ? params.get("watermark") === "on" : saved.watermark;
  const ids = searched ? params.getAll("recipientIds").filter((id) => id.length <= 64) : saved.recipientIds;
  const query = cleanInvestorQuery(params.get(INVESTOR_QUERY_PARAM));
  return { audience, watermark, query, ...recipientChoices(query, ids) };
}

/** The upload form's text fields as typed before a search inside it reloaded the page. */
export function typedUploadFields(params: URLSearchParams): Record<string, string> | undefined {
  if (!params.has(SEARCH_MARKER)) return undefined;
  const typed: Record<string, string> = {};
  for (const name of ["title", "description", "category"]) {
    const value = params.get(name);
    if (value !== null) typed[name] = value.slice(0, 2000);
  }
  return typed;
}
