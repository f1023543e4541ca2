import { HomeOutlined, MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Layout, Menu, Space, theme, type MenuProps } from 'antd';
import { Suspense, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { ColorModeSwitch } from '../components/ColorModeSwitch';
import { Logo } from '../components/Logo';
import { PageLoading } from '../components/PageLoading';
import { loginRedirectPath } from '../router/guards';
import { activeMenuKey, openMenuKeys, sidebarMenu, type MenuEntry } from '../router/menus';
import { breadcrumbTrail, CONSOLE_HOME_PATH, resolveRoute } from '../router/routes';
import { sessionSnapshot } from '../session/session';
import { useUserStore } from '../stores/user';
import { BalanceIndicator } from './BalanceIndicator';
import { LAYOUT_TEXTS } from './texts';
import { UserMenu } from './UserMenu';

const T = LAYOUT_TEXTS.dashboard;

function toMenuItems(entries: MenuEntry[]): NonNullable<MenuProps['items']> {
  return entries.map((entry) =>
    entry.children
      ? { key: entry.key, icon: entry.icon, label: entry.label, children: toMenuItems(entry.children) }
      : { key: entry.key, icon: entry.icon, label: <Link to={entry.key}>{entry.label}</Link> },
  );
}

/** The console: sidebar from the route table, header with balance, colour mode and account. */
export function DashboardLayout() {
  const { token } = theme.useToken();
  const location = useLocation();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(false);
  const state = useUserStore();
  const loggedIn = Boolean(state.token);
  const route = resolveRoute(location.pathname);

  const items = toMenuItems(sidebarMenu(sessionSnapshot(state)));
  const trail = breadcrumbTrail(route);

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
        <nav aria-label={T.sidebar}>
          <Menu
            mode="inline"
            items={items}
            selectedKeys={[activeMenuKey(route)]}
            defaultOpenKeys={openMenuKeys(route)}
            className="slg-dashboard-menu"
          />
        </nav>
      </Layout.Sider>
      <Layout>
        <Layout.Header
          className="slg-dashboard-header"
          style={{ background: token.colorBgContainer, borderBottom: `1px solid ${token.colorBorderSecondary}` }}
        >
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
            {loggedIn ? <BalanceIndicator /> : null}
            <ColorModeSwitch />
            {loggedIn ? (
              <UserMenu />
            ) : (
              <Button type="primary" onClick={() => navigate(loginRedirectPath(location))}>
                {T.login}
              </Button>
            )}
          </Space>
        </Layout.Header>
        <Layout.Content className="slg-dashboard-content">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
