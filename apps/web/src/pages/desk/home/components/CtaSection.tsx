import LinkButton from '../../components/LinkButton';
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
            <LinkButton to={DESK_LINKS.register} type="primary" size="large">
              {TEXTS.register}
            </LinkButton>
            <LinkButton to={DESK_LINKS.console} size="large">
              {TEXTS.console}
            </LinkButton>
          </div>
        </div>
      </div>
    </section>
  );
}
