import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { useHref, useLinkClickHandler } from 'react-router';

type LinkButtonProps = Omit<ButtonProps, 'href' | 'onClick'> & { to: string };

/**
 * A router link that looks like an antd Button (an `<a>`, so it is a link to assistive technology and
 * opens in a new tab with a modifier key), instead of a button nested in a link.
 */
export function LinkButton({ to, ...buttonProps }: LinkButtonProps) {
  const href = useHref(to);
  const handleClick = useLinkClickHandler<HTMLAnchorElement>(to);
  return (
    <Button
      {...buttonProps}
      href={href}
      onClick={(event: MouseEvent<HTMLElement>) => handleClick(event as MouseEvent<HTMLAnchorElement>)}
    />
  );
}
