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
} as const;
