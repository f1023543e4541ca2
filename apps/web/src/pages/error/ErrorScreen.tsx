import { Button, Result, Space } from 'antd';
import { useNavigate } from 'react-router';
import { AntdScope } from '../../theme/AntdScope';
import { ERROR_TEXTS } from './texts';

export type ErrorKind = 'forbidden' | 'notFound' | 'serverError' | 'appError';

const STATUS = { forbidden: '403', notFound: '404', serverError: '500', appError: 'error' } as const;

interface ErrorScreenProps {
  kind: ErrorKind;
  description?: string;
  /** Offer a reload besides 返回首页 (for errors a reload may fix). */
  reload?: boolean;
}

/**
 * The error screens: 403, 404, 500 and the application error; each offers 返回首页. They draw antd's
 * Result illustrations, so antd loads with them (they are rare, and lazy).
 */
export function ErrorScreen(props: ErrorScreenProps) {
  return (
    <AntdScope>
      <ErrorResult {...props} />
    </AntdScope>
  );
}

function ErrorResult({ kind, description, reload = false }: ErrorScreenProps) {
  const navigate = useNavigate();
  const texts = ERROR_TEXTS[kind];
  return (
    <div className="slg-error-screen">
      <Result
        status={STATUS[kind]}
        title={<h1 className="slg-error-title">{texts.title}</h1>}
        subTitle={description ?? texts.description}
        extra={
          <Space>
            <Button type="primary" onClick={() => navigate('/')}>
              {ERROR_TEXTS.home}
            </Button>
            {reload ? <Button onClick={() => window.location.reload()}>{ERROR_TEXTS.reload}</Button> : null}
          </Space>
        }
      />
    </div>
  );
}
