import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  AccountType,
  AUTHORITY_TYPE_LABELS,
  formatYuan,
  NICKNAME_MAX_LENGTH,
  NICKNAME_MESSAGE,
  OFFERED_AUTHORITY_TYPES,
  PERMISSION_LEVEL_LABELS,
  PERMISSION_LEVELS,
  type PermissionMap,
} from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Input, Result, Skeleton, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { claimError, isApiError } from '../../../api/client';
import { invalidateSubAccounts, setSubAccountPermissions, subAccountKeys, updateSubAccount, useSubAccountQuery, type PermissionGrant, type SubAccountView } from '../../../api/subAccounts';
import { toast } from '../../../api/toast';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DateTime } from '../../../components/DateTime';
import { LinkButton } from '../../../components/LinkButton';
import { PageHeader } from '../../../components/PageHeader';
import { QueryError, useErrorShownInPlace } from '../../../components/QueryError';
import { useUserStore } from '../../../stores/user';
import { withAntd } from '../../../theme/AntdScope';
import { BalanceModeOptions } from '../child-account/BalanceModeOptions';
import '../child-account/childAccount.css';
import { PermissionLevelPicker } from '../child-account/permissions';
import { CHILD_ACCOUNT_TEXTS, PERMISSION_LEVEL_HINTS } from '../child-account/texts';
import { CHILD_ACCOUNT_DETAIL_TEXTS } from './texts';

const T = CHILD_ACCOUNT_DETAIL_TEXTS;
const LIST_PATH = '/ctrl-personal-center/personal-center/child-account';

/** `?id=` as a positive safe integer, else null. */
export function parseSubAccountId(raw: string | null): number | null {
  const text = raw?.trim() ?? '';
  if (!/^\d{1,16}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The grants that differ from what the sub-account has now (only types that can be granted today). */
export function changedGrants(current: PermissionMap, draft: PermissionMap): PermissionGrant[] {
  return OFFERED_AUTHORITY_TYPES.filter((type) => draft[type] !== current[type]).map((authorityType) => ({ authorityType, level: draft[authorityType] }));
}

function useSetCached() {
  const queryClient = useQueryClient();
  return (updated: SubAccountView) => {
    queryClient.setQueryData(subAccountKeys.detail(updated.id), updated);
    void invalidateSubAccounts(queryClient);
  };
}

function NicknameEditor({ sub }: { sub: SubAccountView }) {
  const setCached = useSetCached();
  const [value, setValue] = useState(sub.nickname);
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (nickname: string) => updateSubAccount(sub.id, { nickname }),
    onSuccess: (updated) => {
      toast.success(T.facts.nicknameSaved);
      setValue(updated.nickname);
      setCached(updated);
    },
    onError: (failure) => {
      if (isApiError(failure) && failure.status === 400) {
        claimError(failure);
        setError(failure.message);
      }
    },
  });
  const trimmed = value.trim();
  function submit() {
    if (!trimmed) return setError(T.facts.nicknameRequired);
    if (trimmed.length > NICKNAME_MAX_LENGTH) return setError(NICKNAME_MESSAGE);
    setError(null);
    save.mutate(trimmed);
  }
  return (
    <div>
      <div className="slg-child-nickname">
        <Input
          aria-label={T.facts.nickname}
          value={value}
          maxLength={NICKNAME_MAX_LENGTH}
          status={error ? 'error' : undefined}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          onPressEnter={submit}
        />
        <Button onClick={submit} loading={save.isPending} disabled={trimmed === sub.nickname}>
          {T.facts.saveNickname}
        </Button>
      </div>
      {error ? <Typography.Text type="danger">{error}</Typography.Text> : null}
    </div>
  );
}

/** 余额方式: switching asks first and says what happens to the money. */
function BalanceModeEditor({ sub }: { sub: SubAccountView }) {
  const setCached = useSetCached();
  const [pending, setPending] = useState<boolean | null>(null);
  const save = useMutation({
    mutationFn: (sharedMainBalance: boolean) => updateSubAccount(sub.id, { sharedMainBalance }),
    onSuccess: (updated) => {
      toast.success(T.facts.balanceSaved);
      setPending(null);
      setCached(updated);
    },
  });
  const balance = formatYuan(sub.balance);
  return (
    <>
      <BalanceModeOptions value={sub.sharedMainBalance} onChange={(shared) => shared !== sub.sharedMainBalance && setPending(shared)} />
      <ConfirmDialog
        open={pending !== null}
        texts={{ title: pending ? T.facts.toSharedTitle : T.facts.toOwnTitle, confirm: T.facts.switchConfirm, cancel: T.facts.switchCancel }}
        loading={save.isPending}
        onConfirm={() => pending !== null && save.mutate(pending)}
        onCancel={() => setPending(null)}
      >
        {pending ? (
          <>
            <Typography.Paragraph>{T.facts.toSharedBody}</Typography.Paragraph>
            {sub.balance !== 0 ? <Typography.Paragraph type="warning">{T.facts.toSharedKept(balance)}</Typography.Paragraph> : null}
          </>
        ) : (
          <Typography.Paragraph>{T.facts.toOwnBody(balance)}</Typography.Paragraph>
        )}
      </ConfirmDialog>
    </>
  );
}

function FactsCard({ sub }: { sub: SubAccountView }) {
  return (
    <Card title={T.facts.title}>
      <Descriptions
        column={1}
        size="small"
        items={[
          { key: 'username', label: T.facts.username, children: <Typography.Text strong>{sub.username}</Typography.Text> },
          { key: 'nickname', label: T.facts.nickname, children: <NicknameEditor key={sub.nickname} sub={sub} /> },
          { key: 'balanceMode', label: T.facts.balanceMode, children: <BalanceModeEditor sub={sub} /> },
          { key: 'balance', label: T.facts.balance, children: formatYuan(sub.balance) },
          { key: 'createdAt', label: T.facts.createdAt, children: <DateTime value={sub.createdAt} /> },
        ]}
      />
    </Card>
  );
}

function PermissionMatrix({ sub }: { sub: SubAccountView }) {
  const setCached = useSetCached();
  // Only the levels picked here; the rest follow the server, so a refetch never shows stale levels.
  const [picked, setPicked] = useState<Partial<PermissionMap>>({});
  const draft: PermissionMap = { ...sub.permissions, ...picked };
  const changes = changedGrants(sub.permissions, draft);
  const save = useMutation({
    mutationFn: (grants: PermissionGrant[]) => setSubAccountPermissions(sub.id, grants),
    onSuccess: (updated) => {
      toast.success(T.matrix.saved);
      setPicked({});
      setCached(updated);
    },
  });
  return (
    <Card title={T.matrix.title}>
      <Typography.Paragraph type="secondary" className="slg-child-matrix-intro">
        {T.matrix.intro}
      </Typography.Paragraph>
      <ul className="slg-child-level-legend">
        {PERMISSION_LEVELS.map((level) => (
          <li key={level}>
            <Typography.Text strong>{PERMISSION_LEVEL_LABELS[level]}</Typography.Text>：{PERMISSION_LEVEL_HINTS[level]}
          </li>
        ))}
      </ul>
      <ul className="slg-child-matrix" aria-label={T.matrix.title}>
        {OFFERED_AUTHORITY_TYPES.map((type) => (
          <li key={type} className="slg-child-matrix-row" data-authority={type}>
            <Typography.Text strong>
              {AUTHORITY_TYPE_LABELS[type]}
              {draft[type] !== sub.permissions[type] ? <Typography.Text type="warning"> *</Typography.Text> : null}
            </Typography.Text>
            <PermissionLevelPicker authorityType={type} value={draft[type]} disabled={save.isPending} onChange={(level) => setPicked((current) => ({ ...current, [type]: level }))} />
            <span className="slg-child-matrix-hint">{PERMISSION_LEVEL_HINTS[draft[type]]}</span>
          </li>
        ))}
      </ul>
      <div className="slg-child-matrix-footer">
        <Typography.Text type="secondary">{changes.length ? T.matrix.changed(changes.length) : T.matrix.unchanged}</Typography.Text>
        <Space>
          <Button disabled={!changes.length || save.isPending} onClick={() => setPicked({})}>
            {T.matrix.reset}
          </Button>
          <Button type="primary" disabled={!changes.length} loading={save.isPending} onClick={() => save.mutate(changes)}>
            {T.matrix.save}
          </Button>
        </Space>
      </div>
    </Card>
  );
}

/** 子账号权限设置 (`?id=`): the sub-account's facts, its nickname and balance mode, and its permission matrix. */
function ChildAccountDetailPage() {
  const [params] = useSearchParams();
  const isSubAccount = useUserStore((state) => state.accountType === AccountType.SUB);
  const id = isSubAccount ? null : parseSubAccountId(params.get('id'));
  const query = useSubAccountQuery(id);
  const back = (
    <LinkButton to={LIST_PATH} type="text" icon={<ArrowLeftOutlined aria-hidden />}>
      {T.back}
    </LinkButton>
  );

  let body;
  if (isSubAccount) {
    body = <Result status="403" title={CHILD_ACCOUNT_TEXTS.subAccountOnly} subTitle={CHILD_ACCOUNT_TEXTS.subAccountOnlyHint} />;
  } else if (id === null) {
    body = <Result status="warning" title={T.missingId} subTitle={T.missingIdSubtitle} extra={back} />;
  } else if (query.isPending) {
    body = (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  } else if (query.isError) {
    body =
      isApiError(query.error) && query.error.status === 404 ? (
        <NotFound error={query.error} back={back} />
      ) : (
        <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />
      );
  } else {
    body = (
      <div className="slg-child-detail">
        <FactsCard sub={query.data} />
        <PermissionMatrix key={query.data.id} sub={query.data} />
      </div>
    );
  }

  return (
    <div className="slg-page">
      <PageHeader title={T.title} back={back} />
      {body}
    </div>
  );
}

/** 404 shown in place: its toast is claimed. */
function NotFound({ error, back }: { error: Error; back: ReactNode }) {
  useErrorShownInPlace(error);
  return <Result status="404" title={T.notFound} subTitle={T.notFoundSubtitle} extra={back} />;
}

export default withAntd(ChildAccountDetailPage);
