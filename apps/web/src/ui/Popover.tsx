import { useEffect, useId, type ReactNode } from 'react';
import { Button, type ButtonProps } from './Button';
import { usePopup } from './usePopup';

interface PopoverButtonProps extends Omit<ButtonProps, 'onClick' | 'content'> {
  /** The panel's accessible name. */
  panelLabel: string;
  /** The panel's content; `close` closes it. */
  content: (close: () => void) => ReactNode;
  align?: 'start' | 'end';
}

/**
 * A button opening a small non-modal panel under it (role="dialog"): a press outside or Escape closes
 * it; the focus moves into the panel when it opens.
 */
export function PopoverButton({ panelLabel, content, align = 'end', ...buttonProps }: PopoverButtonProps) {
  const { open, setOpen, close, trigger, popup } = usePopup();
  const panelId = useId();

  useEffect(() => {
    if (open) popup.current?.querySelector<HTMLElement>('button, a[href], input')?.focus();
  }, [open, popup]);

  return (
    <span className="slg-popup-anchor">
      <Button
        {...buttonProps}
        ref={trigger}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((value) => !value)}
      />
      {open ? (
        <div ref={popup} id={panelId} role="dialog" aria-label={panelLabel} className={`slg-popup slg-popover slg-popup-${align}`}>
          {content(() => close(true))}
        </div>
      ) : null}
    </span>
  );
}
