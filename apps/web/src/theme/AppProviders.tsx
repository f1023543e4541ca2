import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, type ReactNode } from 'react';
import { setToastInstance, TOAST_CONFIG } from '../api/toast';
import { readSystemDark, useColorModeStore, useEffectiveColorMode, watchSystemColorScheme } from '../stores/colorMode';
import './dayjs';

/** Routes antd toasts through the App context so they follow the theme. */
function ToastBridge() {
  const { message } = AntdApp.useApp();
  useEffect(() => setToastInstance(message), [message]);
  return null;
}

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
          token: { borderRadius: 6 },
        }}
      >
        <AntdApp message={TOAST_CONFIG} className="slg-app">
          <ToastBridge />
          {children}
        </AntdApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
