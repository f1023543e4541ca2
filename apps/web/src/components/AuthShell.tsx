import { CheckCircleFilled } from '../ui/icons/CheckCircleFilled';
import type { ReactNode } from 'react';
import { config } from '../config';
import { Logo } from './Logo';
import { AUTH_SHELL_TEXTS } from './texts';

/**
 * The frame of the account pages: a brand panel beside the form card. Plain elements styled in
 * global.css with antd's CSS variables (so they follow the theme): the sign-in page is often the first
 * page loaded, and antd's Card and Typography would bring tabs, menus and editors along.
 */
export function AuthShell({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <div className="slg-auth">
      <aside className="slg-auth-brand" aria-hidden="true">
        <div className="slg-auth-brand-inner">
          <div className="slg-auth-brand-name">{config.appTitle}</div>
          <div className="slg-auth-brand-slogan">{AUTH_SHELL_TEXTS.slogan}</div>
          <ul className="slg-auth-brand-points">
            {AUTH_SHELL_TEXTS.points.map((point) => (
              <li key={point}>
                <CheckCircleFilled /> {point}
              </li>
            ))}
          </ul>
        </div>
      </aside>
      <section className="slg-auth-card" aria-labelledby="slg-auth-title">
        <div className="slg-auth-card-logo">
          <Logo />
        </div>
        <h1 id="slg-auth-title" className="slg-auth-title">
          {title}
        </h1>
        {subtitle ? <p className="slg-auth-subtitle">{subtitle}</p> : null}
        {children}
      </section>
    </div>
  );
}
