import { Button, Layout, Space, theme } from 'antd';
import { Suspense } from 'react';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { ColorModeSwitch } from '../components/ColorModeSwitch';
import { Logo } from '../components/Logo';
import { PageLoading } from '../components/PageLoading';
import { config } from '../config';
import { headerMenu } from '../router/menus';
import { CONSOLE_HOME_PATH, findRoute } from '../router/routes';
import { useUserStore } from '../stores/user';
import { LAYOUT_TEXTS } from './texts';
import { useDismissToastsOnLeave } from './useDismissToastsOnLeave';

const T = LAYOUT_TEXTS.desk;

/** Footer links, shown only for pages that exist. */
const FOOTER_LINKS = [
  { path: '/about', label: T.about },
  { path: '/terms/service-terms', label: T.serviceTerms },
  { path: '/terms/privacy-terms', label: T.privacyTerms },
].filter((link) => findRoute(link.path)?.page);

/** Public pages: header with navigation and account entry, footer with links and copyright. */
export function DeskLayout() {
  const { token } = theme.useToken();
  const loggedIn = useUserStore((state) => Boolean(state.token));
  const navigate = useNavigate();
  const nav = headerMenu();
  useDismissToastsOnLeave();

  return (
    <Layout className="slg-desk">
      <Layout.Header
        className="slg-desk-header"
        style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
      >
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
          <Space size={8} className="slg-desk-actions">
            <ColorModeSwitch />
            {loggedIn ? (
              <Button type="primary" onClick={() => navigate(CONSOLE_HOME_PATH)}>
                {T.console}
              </Button>
            ) : (
              <>
                <Button onClick={() => navigate('/login')}>{T.login}</Button>
                <Button type="primary" onClick={() => navigate('/signup')}>
                  {T.signup}
                </Button>
              </>
            )}
          </Space>
        </div>
      </Layout.Header>
      <Layout.Content className="slg-desk-content">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </Layout.Content>
      <Layout.Footer
        className="slg-desk-footer"
        style={{ background: token.colorBgContainer, borderTop: `1px solid ${token.colorBorderSecondary}` }}
      >
        <div className="slg-desk-footer-inner">
          <div>
            <Logo />
            <div className="slg-desk-footer-tagline" style={{ color: token.colorTextSecondary }}>
              {T.tagline}
            </div>
          </div>
          <nav aria-label={T.footerLinks} className="slg-desk-footer-links">
            {FOOTER_LINKS.map((link) => (
              <Link key={link.path} to={link.path} style={{ color: token.colorTextSecondary }}>
                {link.label}
              </Link>
            ))}
          </nav>
        </div>
        <div className="slg-desk-copyright" style={{ color: token.colorTextTertiary }}>
          {T.copyright(new Date().getFullYear(), config.appTitle)}
        </div>
      </Layout.Footer>
    </Layout>
  );
}
