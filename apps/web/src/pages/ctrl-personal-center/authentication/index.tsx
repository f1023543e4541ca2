import { BankOutlined, ClockCircleOutlined, IdcardOutlined, ReadOutlined } from '@ant-design/icons';
import type { VerificationKind } from '@slg/shared';
import { Alert, Card, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import {
  blockingKind,
  openPrivateUpload,
  useVerificationStatusQuery,
  type UploadBrief,
  type Verification,
  type VerificationStatusDto,
} from '../../../api/verification';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError } from '../../../components/QueryError';
import { withAntd } from '../../../theme/AntdScope';
import { VerificationStatusTag } from './components/StatusTag';
import { FORM_PATH_OF, VERIFY_PATHS } from './paths';
import { AUTHENTICATION_TEXTS } from './texts';
import './verification.css';

const T = AUTHENTICATION_TEXTS;
const F = T.facts;

const ICONS: Record<VerificationKind, ReactNode> = { PERSON: <IdcardOutlined />, ENTERPRISE: <BankOutlined />, STUDENT: <ReadOutlined /> };

type Fact = [label: string, value: ReactNode];

/** What was submitted, as the server shows it (ID numbers masked). */
function factsOf(item: Verification): Fact[] {
  if (item.kind === 'PERSON') {
    return [
      [F.realName, item.realName],
      [F.idNumber, item.idNumber],
    ];
  }
  if (item.kind === 'ENTERPRISE') {
    const facts: Fact[] = [
      [F.enterpriseName, item.enterpriseName],
      [F.creditCode, item.creditCode],
    ];
    if (item.legalPerson) facts.push([F.legalPerson, item.legalPerson]);
    return facts;
  }
  return [
    [F.realName, item.realName],
    [F.school, item.school],
    [F.studentNo, item.studentNo],
  ];
}

const fileOf = (item: Verification): UploadBrief | null => (item.kind === 'ENTERPRISE' ? item.licence : item.kind === 'STUDENT' ? item.card : null);

function Facts({ item }: { item: Verification }) {
  const file = fileOf(item);
  const facts: Fact[] = [...factsOf(item), [T.submittedAt, <DateTime key="at" value={item.createdAt} />]];
  if (file) {
    facts.push([
      T.viewFile,
      <Typography.Link key="file" onClick={() => void openPrivateUpload(file).catch(() => undefined)}>
        {file.fileName}
      </Typography.Link>,
    ]);
  }
  return (
    <dl className="slg-verify-facts">
      {facts.map(([label, value]) => (
        <div key={label} className="slg-verify-fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function KindCard({ kind, item, blocker }: { kind: VerificationKind; item: Verification | null; blocker: VerificationKind | null }) {
  const texts = T.cards[kind];
  const status = item?.status ?? null;
  const titleId = `slg-verify-${kind.toLowerCase()}`;

  let action: ReactNode;
  if (status === 'PENDING') {
    action = (
      <Typography.Text type="secondary" className="slg-verify-waiting">
        <ClockCircleOutlined aria-hidden /> {T.pendingHint}
      </Typography.Text>
    );
  } else if (status === 'APPROVED') {
    action = (
      <Typography.Text type="secondary">
        {T.decidedAt} <DateTime value={item?.decidedAt} />
      </Typography.Text>
    );
  } else if (blocker) {
    action = <Typography.Text type="secondary">{T.blocked(blocker)}</Typography.Text>;
  } else {
    const retry = status === 'REJECTED';
    action = (
      <LinkButton to={FORM_PATH_OF[kind]} type={retry ? 'default' : 'primary'} aria-label={`${retry ? T.retry : T.start}：${texts.title}`}>
        {retry ? T.retry : T.start}
      </LinkButton>
    );
  }

  return (
    <Card className="slg-verify-card" aria-labelledby={titleId}>
      <div className="slg-verify-card-head">
        <span className="slg-verify-card-icon" aria-hidden>
          {ICONS[kind]}
        </span>
        <div>
          <div className="slg-verify-card-title">
            <h2 id={titleId}>{texts.title}</h2>
            <VerificationStatusTag status={status} />
          </div>
          <Typography.Text type="secondary" className="slg-verify-card-audience">
            {texts.audience}
          </Typography.Text>
        </div>
      </div>
      <ul className="slg-verify-lines">
        <li>{texts.needs}</li>
        <li>{texts.unlocks}</li>
      </ul>
      {item ? <Facts item={item} /> : null}
      {status === 'REJECTED' ? <Alert type="error" showIcon title={`${T.reason}：${item?.reason ?? '-'}`} /> : null}
      <div className="slg-verify-card-foot">
        {action}
        {kind === 'STUDENT' ? (
          <LinkButton to={VERIFY_PATHS.school} type="link" className="slg-verify-more">
            {T.schoolLink}
          </LinkButton>
        ) : null}
      </div>
    </Card>
  );
}

function Overview({ status }: { status: VerificationStatusDto }) {
  return (
    <>
      {status.verified ? (
        <Alert type="success" showIcon title={T.verifiedTitle} description={T.verifiedHint} className="slg-verify-alert" />
      ) : status.required ? (
        <Alert type="warning" showIcon title={T.requiredTitle} description={T.required} className="slg-verify-alert" />
      ) : null}
      <div className="slg-verify-grid">
        <KindCard kind="PERSON" item={status.person} blocker={blockingKind(status, 'PERSON')} />
        <KindCard kind="ENTERPRISE" item={status.enterprise} blocker={blockingKind(status, 'ENTERPRISE')} />
        <KindCard kind="STUDENT" item={status.student} blocker={blockingKind(status, 'STUDENT')} />
      </div>
      <Typography.Text type="secondary" className="slg-verify-privacy-note">
        {status.required ? '' : T.optional}
        {T.accountKinds}
        {T.privacy}
      </Typography.Text>
    </>
  );
}

/** 实名认证: the three kinds with their status, what each needs and gives, and the way to each form. */
function AuthenticationPage() {
  // Read again every few seconds while a request is under review, so 审核中 turns into the result by itself.
  const query = useVerificationStatusQuery();
  let content: ReactNode;
  if (query.isPending) {
    content = (
      <div className="slg-verify-grid" aria-busy="true">
        {[0, 1, 2].map((index) => (
          <Card key={index} className="slg-verify-card">
            <Skeleton active avatar paragraph={{ rows: 4 }} />
          </Card>
        ))}
      </div>
    );
  } else if (query.isError) {
    content = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else {
    content = <Overview status={query.data} />;
  }
  return (
    <div className="slg-page slg-verify">
      <PageHeader title={T.title} description={T.description} />
      {content}
    </div>
  );
}

export default withAntd(AuthenticationPage);
