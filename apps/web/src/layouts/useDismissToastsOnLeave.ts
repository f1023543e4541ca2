import { useContext, useEffect } from 'react';
import { UNSAFE_DataRouterContext, type Location } from 'react-router';
import { dismissStaleToasts } from '../api/toast';

function samePage(a: Pick<Location, 'pathname'>, b: Pick<Location, 'pathname'>): boolean {
  const normalize = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase();
  return normalize(a.pathname) === normalize(b.pathname);
}

/**
 * Closes the toasts of the page being left as soon as a navigation to another path starts (a change
 * of the query alone, such as a list filter, keeps them). The data router reports the start of a
 * navigation synchronously, in the task that asked for it, so a toast shown just before `navigate()`
 * (or before the 401 redirect) is still fresh and survives its own navigation.
 */
export function useDismissToastsOnLeave(): void {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  useEffect(() => {
    if (!router) return undefined;
    let current = router.state.location;
    /** The key of the last location whose departure was handled. */
    let handledKey: string | null = null;
    return router.subscribe((state) => {
      const next = state.navigation.location;
      // A navigation starts (routes with loaders go through `loading`).
      if (next && next.key !== handledKey) {
        handledKey = next.key;
        if (!samePage(next, state.location)) dismissStaleToasts();
      }
      // A navigation committed without a loading state (no loader to run).
      if (state.location.key !== current.key) {
        if (state.location.key !== handledKey && !samePage(state.location, current)) dismissStaleToasts();
        handledKey = state.location.key;
        current = state.location;
      }
    });
  }, [router]);
}
