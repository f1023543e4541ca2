import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { ColorModeSwitch } from '../components/ColorModeSwitch';
import { PageLoading } from '../components/PageLoading';
import { useDismissToastsOnLeave } from './useDismissToastsOnLeave';

/** Bare centered layout: account pages and error screens. */
export function DefaultLayout() {
  useDismissToastsOnLeave();
  return (
    <div className="slg-default">
      <div className="slg-default-toolbar">
        <ColorModeSwitch />
      </div>
      <main className="slg-default-main">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
