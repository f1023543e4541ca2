import { UI_TEXTS } from '../ui/texts';

/**
 * Centered spinner for route chunks and data that a whole page waits for. Drawn with CSS only
 * (styles/global.css): it is what the first paint shows, before any antd style exists.
 */
export function PageLoading({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? 'slg-page-loading slg-page-loading--full' : 'slg-page-loading'} role="status">
      <span className="slg-spinner" aria-hidden="true" />
      <span className="slg-page-loading-text">{UI_TEXTS.loading}</span>
    </div>
  );
}
