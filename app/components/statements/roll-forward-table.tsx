import type { RollForwardView } from "./statement-view";
import { statementCopy as c } from "~/content/statements";

/**
 * The statement's ILPA roll-forward (issue 25 §1): the NAV rows then the
 * commitment rows, each with the quarter, year to date and inception to date;
 * negatives in parentheses, Ending NAV and Ending unfunded commitment in bold.
 * A real table (row and column headers) styled in app.css (.rollforward).
 * Below 640 px three amount columns do not fit beside the row names, so each
 * row stacks: its name across, then its three amounts side by side, each
 * under its column's name — nothing scrolls inside a box.
 */
export function RollForwardTable({ table }: { table: RollForwardView }) {
  return (
    <div className="rollforward" data-testid="rollforward">
      <table>
        <caption className="sr-only">{table.caption}</caption>
        <colgroup>
          <col className="rollforward-label" />
          <col />
          <col />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">
              <span className="sr-only">{c.columns.row}</span>
            </th>
            {table.headings.map((heading, i) => (
              <th key={heading} scope="col" data-column={i}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        {table.groups.map((group) => (
          <tbody key={group.key}>
            <tr className="rollforward-group">
              <th scope="rowgroup" colSpan={4}>
                {group.title}
              </th>
            </tr>
            {group.rows.map((row) => (
              <tr key={row.key} data-row={row.key} data-total={row.total || undefined} data-indent={row.indent || undefined} data-testid="rollforward-row">
                <th scope="row">{row.label}</th>
                {row.values.map((value, i) => (
                  <td key={i} data-label={table.headings[i]}>
                    {value}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        ))}
      </table>
    </div>
  );
}
