import { HomeOutlined, MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Drawer, Layout, Menu, Space, theme, type MenuProps } from 'antd';
import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ColorModeSwitch } from '../components/ColorModeSwitch';
import { Logo } from '../components/Logo';
import { PageLoading } from '../components/PageLoading';
import { loginRedirectPath } from '../router/guards';
import { activeMenuKey, openMenuKeys, sidebarMenu, type MenuEntry } from '../router/menus';
import { breadcrumbTrail, CONSOLE_HOME_PATH, resolveRoute, type RouteRecord } from '../router/routes';
import { sessionSnapshot } from '../session/session';
import { useUserStore } from '../stores/user';
import { BalanceIndicator } from './BalanceIndicator';
import './dashboard.css';
import { LAYOUT_TEXTS } from './texts';
import { useIsPhone } from './useIsPhone';
import { useDismissToastsOnLeave } from './useDismissToastsOnLeave';
import { UserMenu } from './UserMenu';

const T = LAYOUT_TEXTS.dashboard;

function toMenuItems(entries: MenuEntry[]): NonNullable<MenuProps['items']> {
  return entries.map((entry) =>
    entry.children
      ? { key: entry.key, icon: entry.icon, label: entry.label, children: toMenuItems(entry.children) }
      : { key: entry.key, icon: entry.icon, label: <Link to={entry.key}>{entry.label}</Link> },
  );
}

/** The console menu from the route table, labelled 控制台菜单. */
function SidebarNav({ items, route, onNavigate }: { items: NonNullable<MenuProps['items']>; route: RouteRecord; onNavigate?: () => void }) {
  return (
    <nav aria-label={T.sidebar}>
      <Menu
        mode="inline"
        items={items}
        selectedKeys={[activeMenuKey(route)]}
        defaultOpenKeys={openMenuKeys(route)}
        className="slg-dashboard-menu"
        onClick={onNavigate}
      />
    </nav>
  );
}

/**
 * The console: sidebar from the route table, header with balance, colour mode and account. At phone
 * width the sidebar is a drawer over the page, opened from the header and closed by any navigation.
 */
export function DashboardLayout() {
  const { token } = theme.useToken();
  const location = useLocation();
  const navigate = useNavigate();
  const phone = useIsPhone();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const state = useUserStore();
  const loggedIn = Boolean(state.token);
  const route = resolveRoute(location.pathname);
  useDismissToastsOnLeave();

  // Any navigation (a menu entry, a link in the page, back/forward) closes the drawer.
  useEffect(() => setDrawerOpen(false), [location.key]);
  // Growing past phone width hides the drawer for good.
  useEffect(() => {
    if (!phone) setDrawerOpen(false);
  }, [phone]);

  const items = toMenuItems(sidebarMenu(sessionSnapshot(state)));
  const trail = breadcrumbTrail(route);
  const headerStyle = { background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` };

  const account = [
    loggedIn ? <BalanceIndicator key="balance" /> : null,
    <ColorModeSwitch key="colorMode" />,
    loggedIn ? (
      <UserMenu key="user" />
    ) : (
      <Button key="login" type="primary" onClick={() => navigate(loginRedirectPath(location))}>
        {T.login}
      </Button>
    ),
  ];

  const content = (
    <Layout.Content className="slg-dashboard-content">
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </Layout.Content>
  );

  if (phone) {
    return (
      <Layout className="slg-dashboard slg-dashboard--phone">
        <Layout.Header className="slg-dashboard-header" style={headerStyle}>
          <div className="slg-dashboard-header-left">
            <Button
              type="text"
              icon={<MenuOutlined />}
              aria-label={T.openMenu}
              aria-haspopup="dialog"
              aria-expanded={drawerOpen}
              onClick={() => setDrawerOpen(true)}
            />
            <Logo to={CONSOLE_HOME_PATH} compact />
          </div>
          <div className="slg-dashboard-header-right">{account}</div>
        </Layout.Header>
        <Drawer
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          placement="left"
          size={264}
          title={<Logo to={CONSOLE_HOME_PATH} />}
          closable={{ 'aria-label': T.closeMenu }}
          className="slg-dashboard-drawer"
          styles={{ body: { padding: 0 } }}
          footer={
            <Link to="/" className="slg-dashboard-home">
              <HomeOutlined /> {T.backHome}
            </Link>
          }
        >
          <SidebarNav items={items} route={route} onNavigate={() => setDrawerOpen(false)} />
        </Drawer>
        {content}
      </Layout>
    );
  }

  return (
    <Layout className="slg-dashboard" hasSider>
      <Layout.Sider
        collapsible
        collapsed={collapsed}
        trigger={null}
        width={220}
        breakpoint="lg"
        onBreakpoint={setCollapsed}
        theme="light"
        className="slg-dashboard-sider"
        style={{ borderRight: `1px solid ${token.colorBorderSecondary}` }}
      >
        <div className="slg-dashboard-logo">
          <Logo to={CONSOLE_HOME_PATH} compact={collapsed} />
        </div>
        <SidebarNav items={items} route={route} />
      </Layout.Sider>
      <Layout>
        <Layout.Header className="slg-dashboard-header" style={headerStyle}>
          <Space size={12} className="slg-dashboard-header-left">
            <Button
              type="text"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              aria-label={collapsed ? T.expand : T.collapse}
              onClick={() => setCollapsed((value) => !value)}
            />
            <Breadcrumb
              className="slg-dashboard-breadcrumb"
              items={[
                { title: <Link to={CONSOLE_HOME_PATH}>{T.console}</Link> },
                ...trail.map((record, index) => ({
                  title:
                    index < trail.length - 1 && record.page ? <Link to={record.path}>{record.meta.title}</Link> : record.meta.title,
                })),
              ]}
            />
          </Space>
          <Space size={12} className="slg-dashboard-header-right">
            <Link to="/" className="slg-dashboard-home" title={T.backHome}>
              <HomeOutlined /> <span className="slg-hide-sm">{T.backHome}</span>
            </Link>
            {account}
          </Space>
        </Layout.Header>
        {content}
      </Layout>
    </Layout>
  );
}
