import type { ReactNode } from 'react';
import { AppstoreOutlined } from '../../../../ui/icons/AppstoreOutlined';
import { CodeOutlined } from '../../../../ui/icons/CodeOutlined';
import { DatabaseOutlined } from '../../../../ui/icons/DatabaseOutlined';
import { DeploymentUnitOutlined } from '../../../../ui/icons/DeploymentUnitOutlined';
import { FieldTimeOutlined } from '../../../../ui/icons/FieldTimeOutlined';
import { TeamOutlined } from '../../../../ui/icons/TeamOutlined';
import { HOME_TEXTS } from '../texts';
import { gridClass } from './layout';
import Section from './Section';

const TEXTS = HOME_TEXTS.features;

type FeatureKey = (typeof TEXTS.items)[number]['key'];

const FEATURE_ICONS: Record<FeatureKey, ReactNode> = {
  'per-second': <FieldTimeOutlined />,
  images: <AppstoreOutlined />,
  connect: <CodeOutlined />,
  flexible: <DeploymentUnitOutlined />,
  data: <DatabaseOutlined />,
  team: <TeamOutlined />,
};

export default function FeatureSection() {
  return (
    <Section id="home-features" title={TEXTS.title} subtitle={TEXTS.subtitle}>
      <div className={gridClass('3')}>
        {TEXTS.items.map((feature) => (
          <article key={feature.key} className="slg-home-card slg-home-feature">
            <span aria-hidden className="slg-home-icon-tile">
              {FEATURE_ICONS[feature.key]}
            </span>
            <div>
              <h3 className="slg-home-card-title">{feature.title}</h3>
              <p className="slg-home-muted">{feature.description}</p>
            </div>
          </article>
        ))}
      </div>
    </Section>
  );
}
