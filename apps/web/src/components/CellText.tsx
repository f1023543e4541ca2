import type { ReactNode } from 'react';
import './CellText.css';

/**
 * Free text in a table cell (a description, an order's content, a name): it wraps within `maxWidth`
 * instead of widening the table. Tables size their columns to their content (`scroll.x: max-content`,
 * so a phone scrolls inside the table), and one unwrapped description pushed the amounts beside it off
 * the right edge at 1440 px; antd's `ellipsis` does not help there (it hides the text, and the cell still
 * takes its full width).
 */
export function CellText({ children, maxWidth = '18em' }: { children: ReactNode; maxWidth?: string }) {
  return (
    <span className="slg-cell-text" style={{ maxWidth }}>
      {children}
    </span>
  );
}
