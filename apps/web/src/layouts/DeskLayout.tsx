import { Suspense } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { ColorModeSwitch } from '../components/ColorModeSwitch';
import { Logo } from '../components/Logo';
import { PageLoading } from '../components/PageLoading';
import { config } from '../config';
import { headerMenu } from '../router/menus';
import { CONSOLE_HOME_PATH, findRoute } from '../router/routes';
import { useUserStore } from '../stores/user';
import { ButtonLink } from '../ui/Button';
import { LAYOUT_TEXTS } from './texts';
import { useDismissToastsOnLeave } from './useDismissToastsOnLeave';

const T = LAYOUT_TEXTS.desk;

/** Footer links, shown only for pages that exist. */
const FOOTER_LINKS = [
  { path: '/share-data', label: T.shareData },
  { path: '/about', label: T.about },
  { path: '/terms/service-terms', label: T.serviceTerms },
  { path: '/terms/privacy-terms', label: T.privacyTerms },
].filter((link) => findRoute(link.path)?.page);

/** Public pages: header with navigation and account entry, footer with links and copyright. */
export function DeskLayout() {
  const loggedIn = useUserStore((state) => Boolean(state.token));
  const nav = headerMenu();
  useDismissToastsOnLeave();

  return (
    <div className="slg-desk">
      <header className="slg-desk-header">
        <div className="slg-desk-header-inner">
          <Logo />
          <nav aria-label={T.nav} className="slg-desk-nav">
            {nav.map((item) => (
              <NavLink
                key={item.key}
                to={item.key}
                end
                className={({ isActive }) => (isActive ? 'slg-desk-nav-link is-active' : 'slg-desk-nav-link')}
              >
                {item.label}
              </NavLink>
            ))}
          </nav>
          <div className="slg-desk-actions">
            <ColorModeSwitch />
            {loggedIn ? (
              <ButtonLink to={CONSOLE_HOME_PATH} variant="primary">
                {T.console}
              </ButtonLink>
            ) : (
              <>
                <ButtonLink to="/login">{T.login}</ButtonLink>
                <ButtonLink to="/signup" variant="primary">
                  {T.signup}
                </ButtonLink>
              </>
            )}
          </div>
        </div>
      </header>
      <main className="slg-desk-content">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <footer className="slg-desk-footer">
        <div className="slg-desk-footer-inner">
          <div>
            <Logo />
            <div className="slg-desk-footer-tagline">{T.tagline}</div>
          </div>
          <nav aria-label={T.footerLinks} className="slg-desk-footer-links">
            {FOOTER_LINKS.map((link) => (
              <Link key={link.path} to={link.path}>
                {link.label}
              </Link>
            ))}
          </nav>
        </div>
        <div className="slg-desk-copyright">{T.copyright(new Date().getFullYear(), config.appTitle)}</div>
      </footer>
    </div>
  );
}
