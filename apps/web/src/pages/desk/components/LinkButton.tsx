import type { MouseEvent } from 'react';
import { Button } from 'antd';
import type { ButtonProps } from 'antd';
import { useHref, useNavigate } from 'react-router';

export interface LinkButtonProps extends Omit<ButtonProps, 'href' | 'onClick'> {
  /** In-app path to navigate to. */
  to: string;
}

/**
 * An antd button that is a real link (`<a href>`, so middle-click and "open in new tab" work)
 * and navigates inside the single-page app on a plain left click.
 */
export default function LinkButton({ to, ...buttonProps }: LinkButtonProps) {
  const navigate = useNavigate();
  const href = useHref(to);

  const handleClick = (event: MouseEvent<HTMLElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(to);
  };

  return <Button {...buttonProps} href={href} onClick={handleClick} />;
}
