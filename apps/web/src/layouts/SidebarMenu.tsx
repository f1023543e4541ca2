import { useEffect, useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { MenuEntry } from '../router/menus';
import type { MenuIcon } from '../router/routes';
import { AppstoreOutlined } from '../ui/icons/AppstoreOutlined';
import { CloudServerOutlined } from '../ui/icons/CloudServerOutlined';
import { DashboardOutlined } from '../ui/icons/DashboardOutlined';
import { DatabaseOutlined } from '../ui/icons/DatabaseOutlined';
import { DeploymentUnitOutlined } from '../ui/icons/DeploymentUnitOutlined';
import { DownOutlined } from '../ui/icons/DownOutlined';
import { FolderOutlined } from '../ui/icons/FolderOutlined';
import { RobotOutlined } from '../ui/icons/RobotOutlined';
import { ShopOutlined } from '../ui/icons/ShopOutlined';
import { UserOutlined } from '../ui/icons/UserOutlined';
import { WalletOutlined } from '../ui/icons/WalletOutlined';

// Icons of the menus that have pages: a product not built yet has no menu, so its icon (工作台) joins
// this map with the issue that builds it.
const MENU_ICONS: Partial<Record<MenuIcon, ReactNode>> = {
  overview: <DashboardOutlined />,
  market: <ShopOutlined />,
  container: <CloudServerOutlined />,
  elastic: <DeploymentUnitOutlined />,
  storage: <FolderOutlined />,
  image: <AppstoreOutlined />,
  dataset: <DatabaseOutlined />,
  model: <RobotOutlined />,
  cost: <WalletOutlined />,
  personal: <UserOutlined />,
};

interface SidebarMenuProps {
  entries: MenuEntry[];
  /** The entry highlighted as the current page. */
  selectedKey: string;
  /** Groups open at first (the one holding the current page). */
  defaultOpenKeys: string[];
  /** Icons only (the narrow sidebar): a group's title widens the sidebar again. */
  collapsed?: boolean;
  onExpand?: () => void;
}

function focusTargets(menu: HTMLElement): HTMLElement[] {
  return [...menu.querySelectorAll<HTMLElement>('.slg-menu-link, .slg-submenu-title')];
}

/**
 * The console menu in the shape of antd's inline Menu (a menu of items holding links, and groups whose
 * title opens their items), in plain elements. Up and Down move between the entries.
 */
export function SidebarMenu({ entries, selectedKey, defaultOpenKeys, collapsed = false, onExpand }: SidebarMenuProps) {
  const [openKeys, setOpenKeys] = useState<string[]>(defaultOpenKeys);
  const idPrefix = useId();
  const mustOpen = defaultOpenKeys.join('\n');

  // Going to a page inside a closed group opens that group; groups opened by hand stay open.
  useEffect(() => {
    const keys = mustOpen ? mustOpen.split('\n') : [];
    setOpenKeys((open) => (keys.every((key) => open.includes(key)) ? open : [...new Set([...open, ...keys])]));
  }, [mustOpen]);

  function toggle(key: string) {
    if (collapsed) {
      onExpand?.();
      setOpenKeys((keys) => (keys.includes(key) ? keys : [...keys, key]));
      return;
    }
    setOpenKeys((keys) => (keys.includes(key) ? keys.filter((open) => open !== key) : [...keys, key]));
  }

  function onKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const targets = focusTargets(event.currentTarget);
    const index = targets.indexOf(document.activeElement as HTMLElement);
    const next = targets[event.key === 'ArrowDown' ? (index + 1) % targets.length : (index - 1 + targets.length) % targets.length];
    if (!next) return;
    event.preventDefault();
    next.focus();
  }

  function item(entry: MenuEntry, nested: boolean) {
    const selected = entry.key === selectedKey;
    return (
      <li key={entry.key} role="menuitem" className={['slg-menu-item', nested ? 'slg-menu-item-nested' : '', selected ? 'is-selected' : ''].filter(Boolean).join(' ')}>
        <Link to={entry.key} className="slg-menu-link" aria-current={selected ? 'page' : undefined} title={collapsed ? entry.label : undefined}>
          {entry.icon ? <span className="slg-menu-icon">{MENU_ICONS[entry.icon]}</span> : null}
          <span className="slg-menu-label">{entry.label}</span>
        </Link>
      </li>
    );
  }

  return (
    <ul role="menu" className={collapsed ? 'slg-menu is-collapsed' : 'slg-menu'} onKeyDown={onKeyDown}>
      {entries.map((entry) => {
        if (!entry.children) return item(entry, false);
        const open = !collapsed && openKeys.includes(entry.key);
        const listId = `${idPrefix}-${entry.key}`;
        const holdsSelected = entry.children.some((child) => child.key === selectedKey);
        return (
          <li key={entry.key} role="none" className={['slg-submenu', open ? 'is-open' : '', holdsSelected ? 'is-active' : ''].filter(Boolean).join(' ')}>
            <button
              type="button"
              role="menuitem"
              className="slg-submenu-title"
              aria-haspopup="true"
              aria-expanded={open}
              aria-controls={open ? listId : undefined}
              title={collapsed ? entry.label : undefined}
              onClick={() => toggle(entry.key)}
            >
              {entry.icon ? <span className="slg-menu-icon">{MENU_ICONS[entry.icon]}</span> : null}
              <span className="slg-menu-label">{entry.label}</span>
              <DownOutlined className="slg-submenu-arrow" />
            </button>
            {open ? (
              <ul role="menu" id={listId} className="slg-menu-sub" aria-label={entry.label}>
                {entry.children.map((child) => item(child, true))}
              </ul>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
