import { DesktopOutlined } from '../ui/icons/DesktopOutlined';
import { MoonOutlined } from '../ui/icons/MoonOutlined';
import { SunOutlined } from '../ui/icons/SunOutlined';
import type { ReactNode } from 'react';
import type { ColorModePreference } from '../stores/colorMode';

export const COLOR_MODE_ICONS: Record<ColorModePreference, ReactNode> = {
  system: <DesktopOutlined />,
  light: <SunOutlined />,
  dark: <MoonOutlined />,
};

/** Here rather than in ./texts: every layout draws the control, and that module has the sign-in forms' texts. */
export const COLOR_MODE_TEXTS = {
  label: '颜色模式',
  system: '跟随系统',
  light: '浅色',
  dark: '深色',
} as const;

export interface ColorModeButtonProps {
  showLabel?: boolean;
}
