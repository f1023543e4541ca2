import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Open state of a popup anchored to a trigger (menu, popover): a press outside both or Escape closes
 * it, and Escape puts the focus back on the trigger.
 */
export function usePopup<Trigger extends HTMLElement = HTMLButtonElement>(initiallyOpen = false) {
  const [open, setOpen] = useState(initiallyOpen);
  const trigger = useRef<Trigger>(null);
  const popup = useRef<HTMLDivElement>(null);

  const close = useCallback((refocus = false) => {
    setOpen(false);
    if (refocus) trigger.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return undefined;
    const onPointerDown = (event: PointerEvent | MouseEvent) => {
      const target = event.target as Node | null;
      if (target && (trigger.current?.contains(target) || popup.current?.contains(target))) return;
      setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        close(true);
      }
    };
    document.addEventListener('mousedown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('mousedown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [open, close]);

  return { open, setOpen, close, trigger, popup };
}
