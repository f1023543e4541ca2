import type { CSSProperties, ReactNode } from 'react';
import { Input } from 'antd';

interface DatasetSearchProps {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  /** The search itself (Enter, the button, clearing): the trimmed name. */
  onSearch: (name: string) => void;
  style?: CSSProperties;
  /** What stands next to the box (a tag filter, a status select). */
  children?: ReactNode;
}

/** The search box of every dataset list (公开数据集, 共享数据集, /share-data). */
export function DatasetSearch({ label, placeholder, value, onChange, onSearch, style, children }: DatasetSearchProps) {
  return (
    <div className="slg-ds-filters" role="search" aria-label={label} style={style}>
      <Input.Search
        className="slg-ds-search"
        aria-label={label}
        placeholder={placeholder}
        allowClear
        maxLength={64}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onSearch={(name) => onSearch(name.trim())}
      />
      {children}
    </div>
  );
}
