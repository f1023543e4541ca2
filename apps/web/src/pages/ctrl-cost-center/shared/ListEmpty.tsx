import type { ReactNode } from 'react';
import { Empty } from 'antd';

interface ListEmptyProps {
  /** The list has filters set: say nothing matched, and offer no next step. */
  filtered: boolean;
  text: string;
  filteredText: string;
  /** The next step for an account with nothing here yet. */
  action: ReactNode;
}

/** The empty state of a filtered list: "nothing matches" versus "nothing yet, here is what to do". */
export function ListEmpty({ filtered, text, filteredText, action }: ListEmptyProps) {
  return <Empty description={filtered ? filteredText : text}>{filtered ? null : action}</Empty>;
}
