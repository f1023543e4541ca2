import { Typography } from 'antd';
import type { ReactNode } from 'react';
import './PageHeader.css';

interface PageHeaderProps {
  title: ReactNode;
  /** One line under the title. */
  description?: ReactNode;
  /** Actions on the right (buttons, links). */
  extra?: ReactNode;
  /** Shown before the title, e.g. a back link. */
  back?: ReactNode;
}

/** The title row of a console page: a level-1 heading, an optional description and actions. */
export function PageHeader({ title, description, extra, back }: PageHeaderProps) {
  return (
    <div className="slg-page-header">
      <div className="slg-page-header-main">
        {back ? <div className="slg-page-header-back">{back}</div> : null}
        <div className="slg-page-header-text">
          <Typography.Title level={1} className="slg-page-header-title">
            {title}
          </Typography.Title>
          {description ? (
            <Typography.Text type="secondary" className="slg-page-header-description">
              {description}
            </Typography.Text>
          ) : null}
        </div>
      </div>
      {extra ? <div className="slg-page-header-extra">{extra}</div> : null}
    </div>
  );
}
