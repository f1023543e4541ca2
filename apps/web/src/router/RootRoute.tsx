import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { config } from '../config';
import { useColorModeStore } from '../stores/colorMode';
import { applyCanonical, canonicalUrl, documentTitle } from './guards';
import { NOT_FOUND_ROUTE, resolveRoute } from './routes';

/** Root of the data router: page title, canonical link and the page-level colour mode. */
export function RootRoute() {
  const location = useLocation();
  const route = resolveRoute(location.pathname);

  // A route whose page is not built shows 页面不存在, and its title says so; dialog sub-paths show their page.
  const title = route.page || route.meta.dialog ? route.meta.title : NOT_FOUND_ROUTE.meta.title;

  useEffect(() => {
    document.title = documentTitle(config.appTitle, title);
    applyCanonical(document, canonicalUrl(config.publicUrl, location.pathname));
  }, [title, location.pathname]);

  useEffect(() => {
    useColorModeStore.getState().forceMode(route.meta.forceColorMode);
  }, [route]);

  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
