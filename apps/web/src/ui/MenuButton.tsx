import { useEffect, useId, type KeyboardEvent, type ReactNode } from 'react';
import { Button, type ButtonProps } from './Button';
import { CheckOutlined } from './icons/CheckOutlined';
import { usePopup } from './usePopup';

export interface MenuButtonItem<Key extends string> {
  key: Key;
  label: string;
  icon?: ReactNode;
}

interface MenuButtonProps<Key extends string> extends Omit<ButtonProps, 'onClick' | 'onSelect'> {
  items: MenuButtonItem<Key>[];
  /** The item shown as chosen (a check mark). */
  selected?: Key;
  onSelect: (key: Key) => void;
  /** The menu's side under the button. */
  align?: 'start' | 'end';
}

/**
 * A button opening a menu of actions (ARIA menu button): the arrow keys move between the items, Escape
 * closes the menu and returns to the button, choosing an item closes it.
 */
export function MenuButton<Key extends string>({ items, selected, onSelect, align = 'end', ...buttonProps }: MenuButtonProps<Key>) {
  const { open, setOpen, close, trigger, popup } = usePopup();
  const menuId = useId();

  // The menu takes the focus when it opens: the chosen item, else the first.
  useEffect(() => {
    if (!open) return;
    const menu = popup.current;
    const current = menu?.querySelector<HTMLElement>('[aria-current="true"]') ?? menu?.querySelector<HTMLElement>('[role="menuitem"]');
    current?.focus();
  }, [open, popup]);

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const entries = [...(popup.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    const target =
      event.key === 'ArrowDown' ? entries[(index + 1) % entries.length]
      : event.key === 'ArrowUp' ? entries[(index - 1 + entries.length) % entries.length]
      : event.key === 'Home' ? entries[0]
      : event.key === 'End' ? entries[entries.length - 1]
      : event.key === 'Tab' ? null
      : undefined;
    if (target === null) {
      setOpen(false);
      return;
    }
    if (!target) return;
    event.preventDefault();
    target.focus();
  }

  return (
    <span className="slg-popup-anchor">
      <Button
        {...buttonProps}
        ref={trigger}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
      />
      {open ? (
        <div ref={popup} id={menuId} role="menu" className={`slg-popup slg-menu-popup slg-popup-${align}`} onKeyDown={onMenuKeyDown}>
          {items.map((item) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              tabIndex={-1}
              aria-current={item.key === selected ? 'true' : undefined}
              className={item.key === selected ? 'slg-menu-popup-item is-selected' : 'slg-menu-popup-item'}
              onClick={() => {
                onSelect(item.key);
                close(true);
              }}
            >
              {item.icon}
              <span className="slg-menu-popup-label">{item.label}</span>
              {item.key === selected ? <CheckOutlined className="slg-menu-popup-check" /> : null}
            </button>
          ))}
        </div>
      ) : null}
    </span>
  );
}
