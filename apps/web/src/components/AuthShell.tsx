import { CheckCircleFilled } from '@ant-design/icons';
import { Card, Typography } from 'antd';
import type { ReactNode } from 'react';
import { config } from '../config';
import { Logo } from './Logo';
import { AUTH_SHELL_TEXTS } from './texts';

/** The frame of the account pages: a brand panel beside the form card. */
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
      <Card className="slg-auth-card" variant="borderless">
        <div className="slg-auth-card-logo">
          <Logo />
        </div>
        <Typography.Title level={3} className="slg-auth-title">
          {title}
        </Typography.Title>
        {subtitle ? <Typography.Paragraph type="secondary">{subtitle}</Typography.Paragraph> : null}
        {children}
      </Card>
    </div>
  );
}
