import { Button } from 'antd';
import { lazy, Suspense, useRef, useState, useTransition } from 'react';
import { useColorModeStore } from '../stores/colorMode';
import { COLOR_MODE_ICONS, COLOR_MODE_TEXTS, type ColorModeButtonProps } from './colorModeButton';

// The dropdown and its menu are among the largest antd components: they load when the user reaches for
// the control, not with every page.
const ColorModeMenu = lazy(() => import('./ColorModeMenu'));

/** The colour mode control (跟随系统 / 浅色 / 深色), labelled 颜色模式. */
export function ColorModeSwitch({ showLabel = false }: ColorModeButtonProps) {
  const preference = useColorModeStore((state) => state.preference);
  const [menu, setMenu] = useState<{ open: boolean; focused: boolean } | null>(null);
  const [, startTransition] = useTransition();
  const buttonRef = useRef<HTMLButtonElement>(null);

  // In a transition the plain button stays on screen (and keeps focus) while the menu chunk loads.
  const loadMenu = (open: boolean) => {
    const focused = document.activeElement === buttonRef.current;
    startTransition(() => setMenu((current) => ({ open: open || Boolean(current?.open), focused })));
  };

  const plainButton = (
    <Button
      ref={buttonRef}
      type="text"
      icon={COLOR_MODE_ICONS[preference]}
      aria-label={COLOR_MODE_TEXTS.label}
      aria-haspopup="menu"
      title={`${COLOR_MODE_TEXTS.label}：${COLOR_MODE_TEXTS[preference]}`}
      onPointerEnter={() => loadMenu(false)}
      onFocus={() => loadMenu(false)}
      onPointerDown={() => loadMenu(true)}
      onClick={() => loadMenu(true)}
    >
      {showLabel ? COLOR_MODE_TEXTS[preference] : null}
    </Button>
  );

  return (
    <Suspense fallback={plainButton}>
      {menu ? <ColorModeMenu showLabel={showLabel} initiallyOpen={menu.open} autoFocus={menu.focused} /> : plainButton}
    </Suspense>
  );
}
