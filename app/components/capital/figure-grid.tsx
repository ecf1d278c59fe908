import type { Figure } from "./figures";

/**
 * A capital account's figures as a description list: FigureList's cards
 * (figures.tsx) with their styles in app.css (.figure-grid) instead of on each
 * card, for the pages that show many (the investor's capital account: eleven
 * figures a holding and the combined view). The same layout: cards wide enough
 * for "$10,000,000.00", one a row on a narrow phone, two from 400 px, as many
 * as fit on wider screens.
 */
export function FigureGrid({ figures, className = "mt-4" }: { figures: readonly Figure[]; className?: string }) {
  return (
    <dl className={`figure-grid ${className}`}>
      {figures.map((figure) => (
        <div key={figure.label}>
          <dt>{figure.label}</dt>
          <dd data-testid={figure.testId}>{figure.value}</dd>
          {figure.hint ? <dd>{figure.hint}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
