import dayjs, { type Dayjs } from 'dayjs';
import type { TimeRangeQuery } from '../../../api/billing';

const DAY_FORMAT = 'YYYY-MM-DD';

/** The URL form of a picked day range: `from` and `to` as `YYYY-MM-DD`, both inclusive. */
export function rangeToDays(range: readonly [Dayjs | null, Dayjs | null] | null): { from?: string; to?: string } {
  const [start, end] = range ?? [null, null];
  return { from: start?.format(DAY_FORMAT), to: end?.format(DAY_FORMAT) };
}

function parseDay(value: string | undefined): Dayjs | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const day = dayjs(value);
  // Rejects impossible dates such as 2024-02-30 that dayjs would roll over.
  return day.isValid() && day.format(DAY_FORMAT) === value ? day : null;
}

/** The RangePicker value of `from` / `to`, or null when either is missing or invalid. */
export function daysToRange(from: string | undefined, to: string | undefined): [Dayjs, Dayjs] | null {
  const start = parseDay(from);
  const end = parseDay(to);
  return start && end ? [start, end] : null;
}

/** API time filters (ISO, start inclusive, end exclusive) for whole local days `from`…`to`. */
export function daysToQuery(from: string | undefined, to: string | undefined): TimeRangeQuery {
  const range = daysToRange(from, to);
  if (!range) return {};
  return { startTime: range[0].startOf('day').toISOString(), endTime: range[1].add(1, 'day').startOf('day').toISOString() };
}
