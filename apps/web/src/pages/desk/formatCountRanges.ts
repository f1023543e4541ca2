/**
 * Collapses sorted runs of consecutive integers: [1,2,3,4,5,6] → "1–6";
 * [1,…,10,20,50,100] → "1–10、20、50、100"; [1,2] → "1、2".
 */
export function formatCountRanges(counts: readonly number[]): string {
  const sorted = [...new Set(counts)].sort((a, b) => a - b);
  const parts: string[] = [];
  let start: number | undefined;
  let previous: number | undefined;

  const flush = () => {
    if (start === undefined || previous === undefined) return;
    if (previous - start >= 2) parts.push(`${start}–${previous}`);
    else if (previous === start) parts.push(String(start));
    else parts.push(String(start), String(previous));
  };

  for (const count of sorted) {
    if (previous !== undefined && count === previous + 1) {
      previous = count;
      continue;
    }
    flush();
    start = count;
    previous = count;
  }
  flush();
  return parts.join('、');
}
