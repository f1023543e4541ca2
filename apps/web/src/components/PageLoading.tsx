import { Spin } from 'antd';
import { COMPONENT_TEXTS } from './texts';

/** Centered spinner for route chunks and data that a whole page waits for. */
export function PageLoading({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? 'slg-page-loading slg-page-loading--full' : 'slg-page-loading'} role="status">
      <Spin size="large" description={COMPONENT_TEXTS.loading} />
    </div>
  );
}
