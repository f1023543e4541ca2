import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { TOAST_CONFIG } from '../api/toast';
import { readSystemDark, useColorModeStore, useEffectiveColorMode, watchSystemColorScheme } from '../stores/colorMode';
import { Toaster } from '../ui/Toaster';

/**
 * The root of the console: the query client, the colour mode on <html> (`data-theme`, which switches the
 * CSS variables of styles/theme.css) and the toasts. No antd here: pages built with antd components
 * bring their own AntdScope (theme/AntdScope.tsx).
 */
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
      <div className="slg-app">{children}</div>
      <Toaster top={TOAST_CONFIG.top} />
    </QueryClientProvider>
  );
}
