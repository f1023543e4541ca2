import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { ColorModeSwitch } from '../components/ColorModeSwitch';
import { Logo } from '../components/Logo';
import { PageLoading } from '../components/PageLoading';
import { loginRedirectPath } from '../router/guards';
import { activeMenuKey, openMenuKeys, sidebarMenu } from '../router/menus';
import { breadcrumbTrail, CONSOLE_HOME_PATH, NOT_FOUND_ROUTE, resolveRoute, type RouteRecord } from '../router/routes';
import { sessionSnapshot } from '../session/session';
import { useUserStore } from '../stores/user';
import { Button, ButtonLink } from '../ui/Button';
import { Drawer } from '../ui/Drawer';
import { HomeOutlined } from '../ui/icons/HomeOutlined';
import { MenuFoldOutlined } from '../ui/icons/MenuFoldOutlined';
import { MenuOutlined } from '../ui/icons/MenuOutlined';
import { MenuUnfoldOutlined } from '../ui/icons/MenuUnfoldOutlined';
import { UI_TEXTS } from '../ui/texts';
import { BalanceIndicator } from './BalanceIndicator';
import './dashboard.css';
import { NotificationBell } from './NotificationBell';
import { SidebarMenu } from './SidebarMenu';
import { LAYOUT_TEXTS } from './texts';
import { useIsPhone, useMediaQuery } from './useIsPhone';
import { useDismissToastsOnLeave } from './useDismissToastsOnLeave';
import { UserMenu } from './UserMenu';

const T = LAYOUT_TEXTS.dashboard;

/** Below antd's `lg` breakpoint (992 px) the desktop sidebar starts narrow (icons only). */
const NARROW_MEDIA_QUERY = '(max-width: 991.98px)';

/** The console menu from the route table, labelled 控制台菜单. */
function SidebarNav({ route, collapsed, onExpand }: { route: RouteRecord; collapsed?: boolean; onExpand?: () => void }) {
  const session = sessionSnapshot(useUserStore());
  return (
    <nav aria-label={T.sidebar} className="slg-dashboard-nav">
      <SidebarMenu
        entries={sidebarMenu(session)}
        selectedKey={activeMenuKey(route)}
        defaultOpenKeys={openMenuKeys(route)}
        collapsed={collapsed}
        onExpand={onExpand}
      />
    </nav>
  );
}

/**
 * Where the page sits in the console: 控制台 / its parents / the page. A route whose page is not built
 * shows 页面不存在 and names no feature.
 */
function Breadcrumb({ route }: { route: RouteRecord }) {
  const trail = route.page ? breadcrumbTrail(route) : [NOT_FOUND_ROUTE];
  return (
    <nav aria-label={UI_TEXTS.breadcrumb} className="slg-breadcrumb">
      <ol>
        <li>
          <Link to={CONSOLE_HOME_PATH}>{T.console}</Link>
        </li>
        {trail.map((record, index) => (
          <li key={record.path}>
            <span className="slg-breadcrumb-separator" aria-hidden="true">
              /
            </span>
            {index < trail.length - 1 && record.page ? (
              <Link to={record.path}>{record.meta.title}</Link>
            ) : (
              <span aria-current={index === trail.length - 1 ? 'page' : undefined}>{record.meta.title}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * The console: sidebar from the route table, header with balance, 消息通知, colour mode and account. At phone
 * width the sidebar is a drawer over the page, opened from the header and closed by any navigation.
 * Plain elements on the theme's CSS variables: antd loads only with the pages that use it.
 */
export function DashboardLayout() {
  const location = useLocation();
  const phone = useIsPhone();
  const narrow = useMediaQuery(NARROW_MEDIA_QUERY);
  const [collapsed, setCollapsed] = useState(narrow);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const loggedIn = useUserStore((state) => Boolean(state.token));
  const route = resolveRoute(location.pathname);
  useDismissToastsOnLeave();

  // Any navigation (a menu entry, a link in the page, back/forward) closes the drawer.
  useEffect(() => setDrawerOpen(false), [location.key]);
  // Growing past phone width hides the drawer for good.
  useEffect(() => {
    if (!phone) setDrawerOpen(false);
  }, [phone]);
  // Crossing the lg breakpoint collapses or expands the sidebar, like antd's Sider `breakpoint`.
  useEffect(() => setCollapsed(narrow), [narrow]);

  const account = (
    <>
      {loggedIn ? <BalanceIndicator /> : null}
      {loggedIn ? <NotificationBell /> : null}
      <ColorModeSwitch />
      {loggedIn ? (
        <UserMenu />
      ) : (
        <ButtonLink to={loginRedirectPath(location)} variant="primary">
          {T.login}
        </ButtonLink>
      )}
    </>
  );

  const content = (
    <main className="slg-dashboard-content">
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </main>
  );

  if (phone) {
    return (
      <div className="slg-dashboard slg-dashboard--phone">
        <header className="slg-dashboard-header">
          <div className="slg-dashboard-header-left">
            <Button
              variant="text"
              icon={<MenuOutlined />}
              aria-label={T.openMenu}
              aria-haspopup="dialog"
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
            />
            <Logo to={CONSOLE_HOME_PATH} compact />
          </div>
          <div className="slg-dashboard-header-right">{account}</div>
        </header>
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          title={<Logo to={CONSOLE_HOME_PATH} />}
          closeLabel={T.closeMenu}
          className="slg-dashboard-drawer"
          footer={
            <Link to="/" className="slg-dashboard-home">
              <HomeOutlined /> {T.backHome}
            </Link>
          }
        >
          <SidebarNav route={route} />
        </Drawer>
        {content}
      </div>
    );
  }

  return (
    <div className="slg-dashboard slg-dashboard--desktop">
      <aside className={collapsed ? 'slg-dashboard-sider is-collapsed' : 'slg-dashboard-sider'}>
        <div className="slg-dashboard-logo">
          <Logo to={CONSOLE_HOME_PATH} compact={collapsed} />
        </div>
        <SidebarNav route={route} collapsed={collapsed} onExpand={() => setCollapsed(false)} />
      </aside>
      <div className="slg-dashboard-main">
        <header className="slg-dashboard-header">
          <div className="slg-dashboard-header-left">
            <Button
              variant="text"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              aria-label={collapsed ? T.expand : T.collapse}
              onClick={() => setCollapsed((value) => !value)}
            />
            <Breadcrumb route={route} />
          </div>
          <div className="slg-dashboard-header-right">
            <Link to="/" className="slg-dashboard-home" title={T.backHome}>
              <HomeOutlined /> <span className="slg-hide-sm">{T.backHome}</span>
            </Link>
            {account}
          </div>
        </header>
        {content}
      </div>
    </div>
  );
}
