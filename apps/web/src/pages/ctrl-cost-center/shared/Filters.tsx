import type { Dictionary } from '@slg/shared';
import { Button, DatePicker, Select } from 'antd';
import type { ReactNode } from 'react';
import { COST_TEXTS } from './texts';
import { daysToRange, rangeToDays } from './timeRange';

/** The filter row above a list, with 重置. */
export function FilterBar({ children, onReset }: { children: ReactNode; onReset: () => void }) {
  return (
    <div className="slg-filter-bar" role="search" aria-label={COST_TEXTS.filters}>
      {children}
      <Button onClick={onReset}>{COST_TEXTS.reset}</Button>
    </div>
  );
}

interface DictSelectProps<V extends string> {
  label: string;
  dict: Dictionary<V>;
  value: V | undefined;
  onChange: (value: V | undefined) => void;
  width?: number;
}

/** A dictionary filter; clearing it means 全部. */
export function DictSelect<V extends string>({ label, dict, value, onChange, width = 160 }: DictSelectProps<V>) {
  return (
    <Select<V>
      aria-label={label}
      placeholder={`${label}：${COST_TEXTS.all}`}
      allowClear
      value={value}
      onChange={(next) => onChange(next ?? undefined)}
      options={dict.map((item) => ({ value: item.value, label: item.label }))}
      style={{ width }}
      popupMatchSelectWidth={false}
    />
  );
}

/** Day range filter kept as `from` / `to` (YYYY-MM-DD). */
export function DayRangeFilter({
  from,
  to,
  onChange,
}: {
  from: string | undefined;
  to: string | undefined;
  onChange: (days: { from?: string; to?: string }) => void;
}) {
  return (
    <DatePicker.RangePicker
      aria-label={COST_TEXTS.timeRange}
      placeholder={[COST_TEXTS.startDate, COST_TEXTS.endDate]}
      value={daysToRange(from, to)}
      onChange={(range) => onChange(rangeToDays(range))}
      allowClear
    />
  );
}
