import { Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { COLOR_MODE_PREFERENCES, useColorModeStore } from '../stores/colorMode';
import { COLOR_MODE_ICONS, COLOR_MODE_TEXTS, type ColorModeButtonProps } from './colorModeButton';

/** The colour mode button with its menu; loaded by ColorModeSwitch on first hover, focus or press. */
export default function ColorModeMenu({ showLabel, initiallyOpen, autoFocus }: ColorModeButtonProps & { initiallyOpen: boolean; autoFocus: boolean }) {
  const preference = useColorModeStore((state) => state.preference);
  const setPreference = useColorModeStore((state) => state.setPreference);
  const [open, setOpen] = useState(initiallyOpen);

  const items: MenuProps['items'] = COLOR_MODE_PREFERENCES.map((mode) => ({
    key: mode,
    icon: COLOR_MODE_ICONS[mode],
    label: COLOR_MODE_TEXTS[mode],
  }));

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      menu={{
        items,
        selectable: true,
        selectedKeys: [preference],
        onClick: ({ key }) => {
          setPreference(COLOR_MODE_PREFERENCES.find((mode) => mode === key) ?? 'system');
          setOpen(false);
        },
      }}
    >
      <Button
        type="text"
        icon={COLOR_MODE_ICONS[preference]}
        aria-label={COLOR_MODE_TEXTS.label}
        title={`${COLOR_MODE_TEXTS.label}：${COLOR_MODE_TEXTS[preference]}`}
        autoFocus={autoFocus}
      >
        {showLabel ? COLOR_MODE_TEXTS[preference] : null}
      </Button>
    </Dropdown>
  );
}
