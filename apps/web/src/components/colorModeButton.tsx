import { DesktopOutlined } from '../ui/icons/DesktopOutlined';
import { MoonOutlined } from '../ui/icons/MoonOutlined';
import { SunOutlined } from '../ui/icons/SunOutlined';
import type { ReactNode } from 'react';
import type { ColorModePreference } from '../stores/colorMode';
import { COMPONENT_TEXTS } from './texts';

export const COLOR_MODE_ICONS: Record<ColorModePreference, ReactNode> = {
  system: <DesktopOutlined />,
  light: <SunOutlined />,
  dark: <MoonOutlined />,
};

export const COLOR_MODE_TEXTS = COMPONENT_TEXTS.colorMode;

export interface ColorModeButtonProps {
  showLabel?: boolean;
}
