import { forwardRef, type AnchorHTMLAttributes, type ButtonHTMLAttributes, type MouseEvent, type ReactNode } from 'react';
import { Link, type To } from 'react-router';
import { LoadingOutlined } from './icons/LoadingOutlined';

export type ButtonVariant = 'primary' | 'default' | 'text' | 'link';
export type ButtonSize = 'small' | 'middle' | 'large';

interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** As wide as its container. */
  block?: boolean;
  /** A destructive action: red. */
  danger?: boolean;
  /** Primary colour as text and border on a transparent background. */
  ghost?: boolean;
  icon?: ReactNode;
  /** The icon after the text instead of before. */
  iconEnd?: boolean;
}

/** The class names of a button of this look (ui/ui.css), also for links drawn as buttons. */
export function buttonClassName({ variant = 'default', size = 'middle', block, danger, ghost }: ButtonLook, extra?: string): string {
  return [
    'slg-btn',
    `slg-btn-${variant}`,
    size === 'middle' ? '' : `slg-btn-${size}`,
    block ? 'slg-btn-block' : '',
    danger ? 'slg-btn-danger' : '',
    ghost ? 'slg-btn-ghost' : '',
    extra ?? '',
  ]
    .filter(Boolean)
    .join(' ');
}

function content(icon: ReactNode, iconEnd: boolean | undefined, children: ReactNode) {
  return (
    <>
      {icon && !iconEnd ? icon : null}
      {children === null || children === undefined || children === false ? null : <span>{children}</span>}
      {icon && iconEnd ? icon : null}
    </>
  );
}

export interface ButtonProps extends ButtonLook, Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  /** The button's HTML type (`button` unless it submits a form). */
  htmlType?: 'button' | 'submit' | 'reset';
  /** Shows a spinner and ignores clicks until the work is done. */
  loading?: boolean;
}

/** A button drawn like antd's (default, primary, text and link variants; small, middle, large). */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, block, danger, ghost, icon, iconEnd, htmlType = 'button', loading = false, className, children, onClick, ...rest },
  ref,
) {
  const shownIcon = loading ? <LoadingOutlined spin /> : icon;
  return (
    <button
      ref={ref}
      type={htmlType}
      className={buttonClassName({ variant, size, block, danger, ghost }, [loading ? 'slg-btn-loading' : '', icon || loading ? 'slg-btn-with-icon' : '', className ?? ''].filter(Boolean).join(' '))}
      aria-busy={loading || undefined}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        if (loading) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      {...rest}
    >
      {content(shownIcon, loading ? false : iconEnd, children)}
    </button>
  );
});

export interface ButtonLinkProps extends ButtonLook, Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** In-app destination: a router link (an `<a>`, so it opens in a new tab with a modifier key). */
  to: To;
  replace?: boolean;
}

/** A router link drawn as a button, instead of a button nested in a link. */
export function ButtonLink({ to, replace, variant, size, block, danger, ghost, icon, iconEnd, className, children, ...rest }: ButtonLinkProps) {
  return (
    <Link
      to={to}
      replace={replace}
      className={buttonClassName({ variant, size, block, danger, ghost }, [icon ? 'slg-btn-with-icon' : '', className ?? ''].filter(Boolean).join(' '))}
      {...rest}
    >
      {content(icon, iconEnd, children)}
    </Link>
  );
}
