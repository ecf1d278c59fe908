/** The statements page of a fund and its single-fetch twin (`….data`): its posts carry the P&L file or the previewed text (server/app.ts). */
export const STATEMENTS_PAGE_PATH = /^\/admin\/funds\/[^/]+\/statements(?:\.data)?$/;
