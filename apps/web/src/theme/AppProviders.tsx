import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { ConfigProvider, message, theme, type ThemeConfig } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { useEffect, type ReactNode } from 'react';
import { setToastInstance, TOAST_CONFIG } from '../api/toast';
import {
  readSystemDark,
  useColorModeStore,
  useEffectiveColorMode,
  watchSystemColorScheme,
  type EffectiveColorMode,
} from '../stores/colorMode';

/**
 * The key of antd's theme CSS variables (`--ant-*`): they are declared on elements with this class and
 * the theme's hash class, which ThemeRoot puts on the root element, so plain elements styled in
 * global.css with `var(--ant-…)` follow the light and dark themes.
 */
export const THEME_CSS_VAR_KEY = 'slg-theme';

/**
 * The root element of the console: carries the theme's CSS variables and base text style and hosts the
 * toasts — what antd's App component does, without loading its modal and notification hosts on every
 * page. antd's App is not mounted, so `App.useApp()` has nothing: toasts go through api/toast.ts and
 * confirmations through components/ConfirmDialog.
 */
function ThemeRoot({ children }: { children: ReactNode }) {
  const { hashId } = theme.useToken();
  const [toastApi, toastHolder] = message.useMessage(TOAST_CONFIG);
  // Toasts follow the theme once this instance is registered; until then the static API is used.
  useEffect(() => setToastInstance(toastApi), [toastApi]);
  return (
    <div className={['slg-app', hashId, THEME_CSS_VAR_KEY].filter(Boolean).join(' ')}>
      {toastHolder}
      {children}
    </div>
  );
}

/**
 * Colours that keep text at WCAG AA contrast (4.5:1) on the theme's backgrounds. antd's defaults do not:
 * #1677ff (buttons, links) is 4.1:1 against white, the tertiary text (Typography "secondary") 3.4:1
 * and the error red 3.3:1; in dark mode links and primary-coloured text are 3.6:1 against the container
 * background and the tertiary text 4.4:1 against the page.
 */
const THEME_TOKENS: Record<EffectiveColorMode, ThemeConfig['token']> = {
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

/** Query client, antd (zh_CN, light/dark algorithm) and the `data-theme` attribute on <html>. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const mode = useEffectiveColorMode();

  useEffect(() => {
    const { setSystemDark } = useColorModeStore.getState();
    setSystemDark(readSystemDark());
    return watchSystemColorScheme(setSystemDark);
  }, []);

  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = mode;
    root.style.colorScheme = mode;
  }, [mode]);

  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider
        locale={zhCN}
        // Keep "登录" as written: antd would render two-character labels as "登 录", breaking accessible names.
        button={{ autoInsertSpace: false }}
        theme={{
          algorithm: mode === 'dark' ? theme.darkAlgorithm : theme.defaultAlgorithm,
          token: THEME_TOKENS[mode],
          cssVar: { key: THEME_CSS_VAR_KEY },
        }}
      >
        <ThemeRoot>{children}</ThemeRoot>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
