import { DesktopOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { COLOR_MODE_PREFERENCES, useColorModeStore, type ColorModePreference } from '../stores/colorMode';
import { COMPONENT_TEXTS } from './texts';

const ICONS: Record<ColorModePreference, ReactNode> = {
  system: <DesktopOutlined />,
  light: <SunOutlined />,
  dark: <MoonOutlined />,
};

const T = COMPONENT_TEXTS.colorMode;

/** The colour mode control (跟随系统 / 浅色 / 深色), labelled 颜色模式. */
export function ColorModeSwitch({ showLabel = false }: { showLabel?: boolean }) {
  const preference = useColorModeStore((state) => state.preference);
  const setPreference = useColorModeStore((state) => state.setPreference);

  const items: MenuProps['items'] = COLOR_MODE_PREFERENCES.map((mode) => ({
    key: mode,
    icon: ICONS[mode],
    label: T[mode],
  }));

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items,
        selectable: true,
        selectedKeys: [preference],
        onClick: ({ key }) => setPreference(COLOR_MODE_PREFERENCES.find((mode) => mode === key) ?? 'system'),
      }}
    >
      <Button type="text" icon={ICONS[preference]} aria-label={T.label} title={`${T.label}：${T[preference]}`}>
        {showLabel ? T[preference] : null}
      </Button>
    </Dropdown>
  );
}
