import { APP_TITLE_DEFAULT } from '@slg/shared';

/** Runtime configuration injected by the server into index.html (`<!--slg-config-->`). */
export interface SlgConfig {
  appTitle: string;
  publicUrl: string;
}

declare global {
  interface Window {
    __SLG_CONFIG__?: Partial<SlgConfig>;
  }
}

function trimTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** Reads `window.__SLG_CONFIG__`, falling back to the app title and the current origin. */
export function readConfig(win: Pick<Window, '__SLG_CONFIG__' | 'location'> = window): SlgConfig {
  const injected = win.__SLG_CONFIG__ ?? {};
  const appTitle = typeof injected.appTitle === 'string' && injected.appTitle.trim() ? injected.appTitle : APP_TITLE_DEFAULT;
  const publicUrl =
    typeof injected.publicUrl === 'string' && injected.publicUrl.trim()
      ? trimTrailingSlash(injected.publicUrl)
      : win.location.origin;
  return { appTitle, publicUrl };
}

export const config: SlgConfig = readConfig();
