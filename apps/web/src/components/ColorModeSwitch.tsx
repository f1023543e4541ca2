import { COLOR_MODE_PREFERENCES, useColorModeStore } from '../stores/colorMode';
import { MenuButton } from '../ui/MenuButton';
import { COLOR_MODE_ICONS, COLOR_MODE_TEXTS, type ColorModeButtonProps } from './colorModeButton';

const ITEMS = COLOR_MODE_PREFERENCES.map((mode) => ({ key: mode, icon: COLOR_MODE_ICONS[mode], label: COLOR_MODE_TEXTS[mode] }));

/** The colour mode control (跟随系统 / 浅色 / 深色), labelled 颜色模式. */
export function ColorModeSwitch({ showLabel = false }: ColorModeButtonProps) {
  const preference = useColorModeStore((state) => state.preference);
  const setPreference = useColorModeStore((state) => state.setPreference);
  return (
    <MenuButton
      variant="text"
      icon={COLOR_MODE_ICONS[preference]}
      aria-label={COLOR_MODE_TEXTS.label}
      title={`${COLOR_MODE_TEXTS.label}：${COLOR_MODE_TEXTS[preference]}`}
      items={ITEMS}
      selected={preference}
      onSelect={setPreference}
    >
      {showLabel ? COLOR_MODE_TEXTS[preference] : null}
    </MenuButton>
  );
}
