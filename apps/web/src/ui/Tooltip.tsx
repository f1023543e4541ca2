import { cloneElement, useId, useState, type FocusEvent, type MouseEvent, type ReactElement } from 'react';

interface TooltipChildProps {
  'aria-describedby'?: string;
  onMouseEnter?: (event: MouseEvent<HTMLElement>) => void;
  onMouseLeave?: (event: MouseEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
}

/**
 * A short text shown above its element on hover and keyboard focus (role="tooltip"); the element
 * names it with aria-describedby, so it is read with the element. Escape hides it.
 */
export function Tooltip({ title, children }: { title: string; children: ReactElement<TooltipChildProps> }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  const own = children.props;
  return (
    <span className="slg-tooltip-anchor" onKeyDown={(event) => event.key === 'Escape' && setShown(false)}>
      {cloneElement(children, {
        'aria-describedby': [own['aria-describedby'], id].filter(Boolean).join(' '),
        onMouseEnter: (event: MouseEvent<HTMLElement>) => {
          own.onMouseEnter?.(event);
          setShown(true);
        },
        onMouseLeave: (event: MouseEvent<HTMLElement>) => {
          own.onMouseLeave?.(event);
          setShown(false);
        },
        onFocus: (event: FocusEvent<HTMLElement>) => {
          own.onFocus?.(event);
          setShown(true);
        },
        onBlur: (event: FocusEvent<HTMLElement>) => {
          own.onBlur?.(event);
          setShown(false);
        },
      })}
      <span id={id} role="tooltip" className={shown ? 'slg-tooltip is-shown' : 'slg-tooltip'}>
        {title}
      </span>
    </span>
  );
}
