import type { ReactNode } from 'react';
import { Button, Card, Col, Empty, Result, Row, Skeleton } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { UseQueryResult } from '@tanstack/react-query';
import { HOME_TEXTS } from '../texts';
import { CARD_GUTTER } from './layout';

type ColSpans = Readonly<{ xs?: number; sm?: number; md?: number; lg?: number; xl?: number }>;

export interface QueryContentProps<T> {
  query: UseQueryResult<T[]>;
  /** Title of the error result, e.g. "GPU 型号加载失败". */
  errorTitle: string;
  /** Text of the empty state. */
  emptyText: string;
  /** Column spans of the skeleton cards (same as the real cards). */
  skeletonCols: ColSpans;
  skeletonCount?: number;
  children: (items: T[]) => ReactNode;
}

/** Renders a list query with its loading (skeleton cards), error (with 重试) and empty states. */
export default function QueryContent<T>({
  query,
  errorTitle,
  emptyText,
  skeletonCols,
  skeletonCount = 4,
  children,
}: QueryContentProps<T>) {
  if (query.isPending) {
    return (
      <Row gutter={CARD_GUTTER} aria-busy="true">
        {Array.from({ length: skeletonCount }, (_, index) => (
          <Col key={index} {...skeletonCols}>
            <Card>
              <Skeleton active title paragraph={{ rows: 3 }} />
            </Card>
          </Col>
        ))}
      </Row>
    );
  }

  if (query.isError) {
    return (
      <Result
        status="warning"
        title={errorTitle}
        subTitle={query.error.message || HOME_TEXTS.state.errorFallback}
        extra={
          <Button icon={<ReloadOutlined />} loading={query.isFetching} onClick={() => void query.refetch()}>
            {HOME_TEXTS.state.retry}
          </Button>
        }
      />
    );
  }

  if (query.data.length === 0) {
    return <Empty description={emptyText} />;
  }

  return <>{children(query.data)}</>;
}
