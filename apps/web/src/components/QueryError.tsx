import { Alert, Button, Result } from 'antd';
import { useEffect } from 'react';
import { claimError } from '../api/client';
import { toast } from '../api/toast';
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

/**
 * For a component that shows an error itself (its message, in the page): the error is claimed, so the
 * client leaves out its toast, and a toast of it already on screen closes. Each error is shown once.
 */
export function useErrorShownInPlace(error: unknown): void {
  useEffect(() => {
    if (claimError(error) && error instanceof Error) toast.dismiss('error', error.message);
  }, [error]);
}

/**
 * The error state of a query with a 重试 button. It shows the error in place, so the error is claimed
 * and its toast (if the client already showed it) is closed: each error is shown once.
 */
export function QueryError({ title = COMPONENT_TEXTS.loadFailed, error, onRetry, variant = 'inline' }: QueryErrorProps) {
  useErrorShownInPlace(error);
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

interface StaleDataAlertProps {
  /** What could not be refreshed, e.g. 刷新失败，显示的是上次加载的数据. */
  title: string;
  error?: unknown;
  onRetry: () => void;
  className?: string;
}

/**
 * A refresh that failed while the last data is still on screen: a warning above it with 重试. The
 * error is shown here, so it is claimed (no toast besides).
 */
export function StaleDataAlert({ title, error, onRetry, className }: StaleDataAlertProps) {
  useErrorShownInPlace(error);
  return (
    <Alert
      type="warning"
      showIcon
      className={className}
      title={title}
      description={messageOf(error)}
      action={
        <Button size="small" onClick={onRetry}>
          {COMPONENT_TEXTS.retry}
        </Button>
      }
    />
  );
}
