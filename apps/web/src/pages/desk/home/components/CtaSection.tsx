import { ButtonLink } from '../../../../ui/Button';
import { DESK_LINKS } from '../../links';
import { HOME_TEXTS } from '../texts';

const TEXTS = HOME_TEXTS.cta;

export default function CtaSection() {
  return (
    <section aria-labelledby="home-cta-title" className="slg-home-section slg-home-section--alt">
      <div className="slg-home-column">
        <div className="slg-home-cta">
          <h2 id="home-cta-title" className="slg-home-section-title" style={{ margin: 0 }}>
            {TEXTS.title}
          </h2>
          <p className="slg-home-section-subtitle">{TEXTS.subtitle}</p>
          <div className="slg-home-cta-actions">
            <ButtonLink to={DESK_LINKS.register} variant="primary" size="large">
              {TEXTS.register}
            </ButtonLink>
            <ButtonLink to={DESK_LINKS.console} size="large">
              {TEXTS.console}
            </ButtonLink>
          </div>
        </div>
      </div>
    </section>
  );
}
