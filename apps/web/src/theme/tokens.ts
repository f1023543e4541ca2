import type { EffectiveColorMode } from '../stores/colorMode';

/** The theme's seed tokens as antd's `ThemeConfig['token']` takes them (kept free of antd's types). */
export type ThemeSeedTokens = Record<string, string | number>;

/**
 * The key of antd's theme CSS variables (`--ant-*`) inside an AntdScope. Plain elements use the
 * --slg-* variables of styles/theme.css instead, which exist on every page.
 */
export const THEME_CSS_VAR_KEY = 'slg-theme';

/**
 * Colours that keep text at WCAG AA contrast (4.5:1) on the theme's backgrounds. antd's defaults do not:
 * #1677ff (buttons, links) is 4.1:1 against white, the tertiary text (Typography "secondary") 3.4:1
 * and the error red 3.3:1; in dark mode primary-coloured text is 3.6:1 against the container
 * background and the tertiary text 4.4:1 against the page. styles/theme.css holds the tokens these
 * seeds give (theme/themeCss.test.ts checks it).
 */
export const THEME_TOKENS: Record<EffectiveColorMode, ThemeSeedTokens> = {
  light: {
    borderRadius: 6,
    colorPrimary: '#0958d9',
    colorInfo: '#0958d9',
    colorLink: '#0958d9',
    colorError: '#cf1322',
    colorTextTertiary: 'rgba(0, 0, 0, 0.56)',
  },
  dark: {
    borderRadius: 6,
    colorTextTertiary: 'rgba(255, 255, 255, 0.5)',
    colorLink: '#69b1ff',
    colorLinkHover: '#91caff',
    colorPrimaryText: '#69b1ff',
    colorPrimaryTextHover: '#91caff',
  },
};
