import type { ReactNode } from 'react';

export interface SectionProps {
  id: string;
  title: string;
  subtitle?: string;
  /** Paint the band with the container background to alternate with the layout background. */
  alt?: boolean;
  children: ReactNode;
}

/** A full-width band of the landing page with a centred heading and content column. */
export default function Section({ id, title, subtitle, alt = false, children }: SectionProps) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={alt ? 'slg-home-section slg-home-section--alt' : 'slg-home-section'}>
      <div className="slg-home-column">
        <div className="slg-home-section-head">
          <h2 id={`${id}-title`} className="slg-home-section-title">
            {title}
          </h2>
          {subtitle ? <p className="slg-home-section-subtitle">{subtitle}</p> : null}
        </div>
        {children}
      </div>
    </section>
  );
}
