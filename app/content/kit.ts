/** The words of the workspaces' kit (app/components/kit): tables, menus, filters, empty states. */
export const kitCopy = {
  /** The row menu's button, read with the row's name: 'Actions for Ada Lovelace'. */
  rowActions: (name: string) => `Actions for ${name}`,
  /** A sort link's name: what clicking it does ('Sort by Email, ascending'). */
  sortBy: (column: string, direction: "asc" | "desc") => `Sort by ${column}, ${direction === "asc" ? "ascending" : "descending"}`,
  /** A shortened id's full value, one click away. */
  showFull: "Show the full value",
  copy: "Copy",
  /** The browser's bare 'Choose File', styled. */
  chooseFile: "Choose a file",
  noFileChosen: "No file chosen",
  /** A submit button while its form is sending, unless the form says otherwise. */
  saving: "Saving...",
  /** An import's preview (components/kit/import-preview.tsx). */
  importPreview: {
    /** The summary: "3 rows ready, 1 with errors". */
    readyRows: (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "row" : "rows"} ready`,
    withErrors: (n: number) => `${n.toLocaleString("en-US")} with errors`,
    line: "Line",
    outcome: "Outcome",
    ready: "Ready",
    errors: (n: number) => (n === 1 ? "1 error" : `${n} errors`),
  },
  /** The fresh two-factor code a sensitive change asks for (components/kit/fresh-code-field.tsx). */
  freshCode: {
    label: "Two-factor code",
    hint: "The 6-digit code your authenticator app shows now. A code that was already used, at sign-in too, does not work again.",
  },
} as const;
