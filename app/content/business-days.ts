/**
 * The firm's business days, behind the 5-business-day answer to founders (SPEC §9).
 * Public holidays come from `date-holidays` for the seat below; switch the office
 * here. The firm's own closing days are added on top.
 */
export const businessDays = {
  /** Days the firm promises to answer a pitch within. */
  answerWithin: 5,
  /** The seat whose public holidays count (date-holidays country and state codes). */
  office: { country: "CH", state: "ZH", label: "Zurich" },
  /** Which date-holidays types close the office ("public"; add "bank" or "optional" to close on those too). */
  holidayTypes: ["public"] as readonly string[],
  /**
   * The firm's own closing days, every year, as 'MM-DD': the office closes from
   * Christmas to 2 January (25 and 26 December are public holidays already).
   */
  closingDays: ["12-24", "12-27", "12-28", "12-29", "12-30", "12-31", "01-02"] as readonly string[],
} as const;
