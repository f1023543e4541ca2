import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { TOAST_CONFIG } from '../api/toast';
import { readSystemDark, useColorModeStore, useEffectiveColorMode, watchSystemColorScheme } from '../stores/colorMode';
import { shownToasts, subscribe } from '../ui/toastStore';

const Toaster = lazy(() => import('../ui/Toaster'));

/**
 * The root of the console: the query client, the colour mode on <html> (`data-theme`, which switches the
 * CSS variables of styles/theme.css) and the toasts. No antd here: pages built with antd components
 * bring their own AntdScope (theme/AntdScope.tsx).
 */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const mode = useEffectiveColorMode();
  // The toasts' view (and its icons) loads with the first toast; it stays mounted from then on.
  const anyToast = useSyncExternalStore(subscribe, () => shownToasts().length > 0, () => false);
  const toasterNeeded = useLatch(anyToast);

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
      {toasterNeeded ? (
        <Suspense fallback={null}>
          <Toaster top={TOAST_CONFIG.top} />
        </Suspense>
      ) : null}
    </QueryClientProvider>
  );
}

/** True from the first time `value` is true. */
function useLatch(value: boolean): boolean {
  const [latched, setLatched] = useState(value);
  if (value && !latched) setLatched(true);
  return latched || value;
}
