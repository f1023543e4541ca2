import { Alert, Button, Result } from 'antd';
import { COMPONENT_TEXTS } from './texts';

interface QueryErrorProps {
  /** What failed to load, e.g. 充值记录加载失败. */
  title?: string;
  error: unknown;
  onRetry: () => void;
  /** `inline` is an Alert for a part of a page; `page` a Result for the whole page. */
  variant?: 'inline' | 'page';
}

function messageOf(error: unknown): string | undefined {
  return error instanceof Error && error.message ? error.message : undefined;
}

/** The error state of a query with a 重试 button. */
export function QueryError({ title = COMPONENT_TEXTS.loadFailed, error, onRetry, variant = 'inline' }: QueryErrorProps) {
  const retry = (
    <Button type={variant === 'page' ? 'primary' : 'default'} size={variant === 'page' ? 'middle' : 'small'} onClick={onRetry}>
      {COMPONENT_TEXTS.retry}
    </Button>
  );
  if (variant === 'page') {
    return <Result status="error" title={title} subTitle={messageOf(error)} extra={retry} />;
  }
  return <Alert type="error" showIcon title={title} description={messageOf(error)} action={retry} />;
}
