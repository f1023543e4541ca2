import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Open overlays, innermost last: Escape and the focus trap belong to the innermost only. */
const openOverlays: string[] = [];
let scrollLocks = 0;
let savedOverflow = '';

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)];
}

export interface OverlayProps {
  /** Labelled by this element (the title) … */
  labelledBy?: string;
  /** … or named by this text. */
  label?: string;
  onClose?: () => void;
  /** Clicking the mask closes it (default true). */
  maskClosable?: boolean;
  /** The panel's class: `slg-dialog` (centred) or `slg-drawer` (from the left). */
  panelClassName: string;
  rootClassName?: string;
  /** Element focused first; else the first focusable element of the panel, else the panel. */
  initialFocus?: () => HTMLElement | null | undefined;
  children: ReactNode;
}

/**
 * A modal layer over the page (rendered in document.body): mask, a panel with role="dialog" and
 * aria-modal, focus moved in and kept inside (Tab cycles), Escape and the mask close it, the page does
 * not scroll behind it, and the focus returns to where it was when it closes. Mounted only while open.
 */
export function Overlay({ labelledBy, label, onClose, maskClosable = true, panelClassName, rootClassName, initialFocus, children }: OverlayProps) {
  const id = useId();
  const panel = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  const focusFirst = useRef(initialFocus);
  focusFirst.current = initialFocus;

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    openOverlays.push(id);
    if (scrollLocks++ === 0) {
      savedOverflow = document.body.style.overflow;
      document.body.style.overflow = 'hidden';
    }
    const container = panel.current;
    if (container) {
      const target = focusFirst.current?.() ?? focusables(container).find((element) => !element.hasAttribute('data-slg-close')) ?? container;
      target.focus({ preventScroll: true });
    }
    return () => {
      const index = openOverlays.lastIndexOf(id);
      if (index >= 0) openOverlays.splice(index, 1);
      if (--scrollLocks === 0) document.body.style.overflow = savedOverflow;
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, [id]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (openOverlays[openOverlays.length - 1] !== id) return;
    if (event.key === 'Escape' && close.current) {
      event.stopPropagation();
      close.current();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    const items = focusables(panel.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && (document.activeElement === first || document.activeElement === panel.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  }

  return createPortal(
    <div className={['slg-overlay', rootClassName ?? ''].filter(Boolean).join(' ')} onKeyDown={onKeyDown}>
      <div
        className="slg-overlay-mask"
        aria-hidden="true"
        onClick={() => {
          if (maskClosable) close.current?.();
        }}
      />
      <div ref={panel} role="dialog" aria-modal="true" aria-labelledby={labelledBy} aria-label={labelledBy ? undefined : label} tabIndex={-1} className={panelClassName}>
        {children}
      </div>
    </div>,
    document.body,
  );
}
