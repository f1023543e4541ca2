import { CalendarOutlined } from '../../../../ui/icons/CalendarOutlined';
import { CheckOutlined } from '../../../../ui/icons/CheckOutlined';
import { FieldTimeOutlined } from '../../../../ui/icons/FieldTimeOutlined';
import { InfoCircleFilled } from '../../../../ui/icons/InfoCircleFilled';
import type { ReactNode } from 'react';
import { TIME_PACKAGE_COUNTS } from '@slg/shared';
import { HOME_TEXTS } from '../texts';
import { formatCountRanges } from '../../formatCountRanges';
import { gridClass } from './layout';
import Section from './Section';
import Tag, { type TagTone } from './Tag';

const TEXTS = HOME_TEXTS.billing;

interface BillingCardProps {
  id: string;
  icon: ReactNode;
  title: string;
  tag: string;
  tagTone: TagTone;
  summary: string;
  points: readonly string[];
}

function BillingCard({ id, icon, title, tag, tagTone, summary, points }: BillingCardProps) {
  return (
    <article className="slg-home-card" aria-labelledby={id}>
      <div className="slg-home-billing-head">
        <span aria-hidden className="slg-home-billing-icon">
          {icon}
        </span>
        <h3 id={id} className="slg-home-card-title slg-home-card-title--lg">
          {title}
        </h3>
        <Tag tone={tagTone}>{tag}</Tag>
      </div>
      <p className="slg-home-billing-summary">{summary}</p>
      <ul className="slg-home-points">
        {points.map((point) => (
          <li key={point}>
            <CheckOutlined aria-hidden />
            <span>{point}</span>
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function BillingSection() {
  const packages = TEXTS.prepaid.packages(
    formatCountRanges(TIME_PACKAGE_COUNTS.day),
    formatCountRanges(TIME_PACKAGE_COUNTS.week),
    formatCountRanges(TIME_PACKAGE_COUNTS.month),
  );

  return (
    <Section id="home-billing" title={TEXTS.title} subtitle={TEXTS.subtitle}>
      <div className={gridClass('2')}>
        <BillingCard
          id="home-billing-usage"
          icon={<FieldTimeOutlined />}
          title={TEXTS.usage.title}
          tag={TEXTS.usage.tag}
          tagTone="success"
          summary={TEXTS.usage.summary}
          points={TEXTS.usage.points}
        />
        <BillingCard
          id="home-billing-prepaid"
          icon={<CalendarOutlined />}
          title={TEXTS.prepaid.title}
          tag={TEXTS.prepaid.tag}
          tagTone="warning"
          summary={TEXTS.prepaid.summary}
          points={[packages, ...TEXTS.prepaid.points]}
        />
      </div>
      <p className="slg-home-info" role="note">
        <InfoCircleFilled aria-hidden />
        <span>{TEXTS.note}</span>
      </p>
    </Section>
  );
}
