import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface LoginTab<Key extends string> {
  key: Key;
  label: string;
  panel: ReactNode;
}

/**
 * The two sign-in methods as an ARIA tab list (arrow keys, Home and End move between tabs). antd's Tabs
 * brings its overflow dropdown and menu along; the sign-in page loads before anything else, so it
 * uses this small one. Only the active panel is rendered, so each form starts empty.
 */
export function LoginTabs<Key extends string>({
  tabs,
  active,
  onChange,
  onIntent,
}: {
  tabs: LoginTab<Key>[];
  active: Key;
  onChange: (key: Key) => void;
  /** The pointer or focus reached a tab: a chance to fetch what its panel needs. */
  onIntent?: (key: Key) => void;
}) {
  const id = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const current = tabs.find((tab) => tab.key === active) ?? tabs[0];

  function onKeyDown(event: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = tabs.length - 1;
    const target =
      event.key === 'ArrowRight' ? (index === last ? 0 : index + 1)
      : event.key === 'ArrowLeft' ? (index === 0 ? last : index - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : null;
    if (target === null) return;
    event.preventDefault();
    const next = tabs[target];
    if (!next) return;
    onChange(next.key);
    buttons.current[target]?.focus();
  }

  return (
    <div className="slg-login-tabs">
      <div role="tablist" className="slg-login-tablist">
        {tabs.map((tab, index) => {
          const selected = tab.key === current?.key;
          return (
            <button
              key={tab.key}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${tab.key}`}
              aria-selected={selected}
              aria-controls={`${id}-panel-${tab.key}`}
              tabIndex={selected ? 0 : -1}
              className={selected ? 'slg-login-tab is-active' : 'slg-login-tab'}
              onClick={() => onChange(tab.key)}
              onPointerEnter={() => onIntent?.(tab.key)}
              onFocus={() => onIntent?.(tab.key)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      {current ? (
        <div role="tabpanel" id={`${id}-panel-${current.key}`} aria-labelledby={`${id}-tab-${current.key}`} className="slg-login-tabpanel">
          {current.panel}
        </div>
      ) : null}
    </div>
  );
}
