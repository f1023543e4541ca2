import { BankOutlined, ReadOutlined } from '@ant-design/icons';
import { Card, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { blockingKind, useVerificationStatusQuery } from '../../../api/verification';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { VerificationStatusTag } from '../authentication/components/StatusTag';
import { VERIFY_PATHS } from '../authentication/paths';
import { AUTHENTICATION_TEXTS } from '../authentication/texts';
import '../authentication/verification.css';
import { SCHOOL_PAGE_TEXTS } from './texts';

const T = SCHOOL_PAGE_TEXTS;

function CardTitle({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <span className="slg-verify-card-head">
      <span className="slg-verify-card-icon" aria-hidden>
        {icon}
      </span>
      {children}
    </span>
  );
}

/**
 * 学校认证: the landing of 学生认证 — what it is, its steps and the student's current status, with the
 * way to the form (edu-page); a school or lab verifies as an institution through 企业认证 instead.
 */
function SchoolPage() {
  const query = useVerificationStatusQuery();
  let content: ReactNode;
  if (query.isPending) {
    content = (
      <Card className="slg-school-card">
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  } else if (query.isError) {
    content = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else {
    const status = query.data;
    const studentStatus = status.student?.status ?? null;
    const studentBlocker = blockingKind(status, 'STUDENT');
    const enterpriseBlocker = blockingKind(status, 'ENTERPRISE');
    const canStart = !studentBlocker && (studentStatus === null || studentStatus === 'REJECTED');
    content = (
      <div className="slg-school-layout">
        <Card title={<CardTitle icon={<ReadOutlined />}>{T.student.title}</CardTitle>} className="slg-school-card">
          <Typography.Paragraph>{T.student.intro}</Typography.Paragraph>
          <div>
            <Typography.Text type="secondary">{T.student.status}：</Typography.Text>
            <VerificationStatusTag status={studentStatus} />
          </div>
          <Typography.Text strong>{T.student.stepsTitle}</Typography.Text>
          <ol className="slg-school-steps">
            {T.student.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          {studentBlocker ? <Typography.Text type="secondary">{AUTHENTICATION_TEXTS.blocked(studentBlocker)}</Typography.Text> : null}
          {canStart ? (
            <div>
              <LinkButton to={VERIFY_PATHS.student} type="primary">
                {studentStatus === 'REJECTED' ? T.student.again : T.student.start}
              </LinkButton>
            </div>
          ) : null}
        </Card>
        <Card title={<CardTitle icon={<BankOutlined />}>{T.institution.title}</CardTitle>} className="slg-school-card">
          <Typography.Paragraph>{T.institution.intro}</Typography.Paragraph>
          <Typography.Paragraph type="secondary">{T.institution.tip}</Typography.Paragraph>
          {enterpriseBlocker ? (
            <Typography.Text type="secondary">{AUTHENTICATION_TEXTS.blocked(enterpriseBlocker)}</Typography.Text>
          ) : (
            <div>
              <LinkButton to={VERIFY_PATHS.enterprise}>{T.institution.start}</LinkButton>
            </div>
          )}
        </Card>
      </div>
    );
  }
  return (
    <div className="slg-page slg-verify">
      <PageHeader
        title={T.title}
        description={T.description}
        extra={<LinkButton to={VERIFY_PATHS.overview}>{AUTHENTICATION_TEXTS.form.back}</LinkButton>}
      />
      {content}
    </div>
  );
}

export default withAntd(SchoolPage);
