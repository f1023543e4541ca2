import { ArrowLeftOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { ErrorCodes, type VerificationKind } from '@slg/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Form, Skeleton, type FormInstance } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { claimError, isApiError } from '../../../../api/client';
import { toast } from '../../../../api/toast';
import { blockingKind, rememberSubmitted, useVerificationStatusQuery, verificationKeys, type Verification, type VerificationStatusDto } from '../../../../api/verification';
import { LinkButton } from '../../../../components/LinkButton';
import { PageHeader } from '../../../../components/PageHeader';
import { QueryError } from '../../../../components/QueryError';
import { VERIFY_PATHS } from '../paths';
import { AUTHENTICATION_TEXTS } from '../texts';
import '../verification.css';

const T = AUTHENTICATION_TEXTS;

const latestOf = (status: VerificationStatusDto, kind: VerificationKind): Verification | null =>
  kind === 'PERSON' ? status.person : kind === 'ENTERPRISE' ? status.enterprise : status.student;

/**
 * The frame of a verification form page: the header with 返回实名认证, the account's status (loading,
 * error with 重试), and instead of the form a notice when the kind is already under review or approved,
 * or when the other kind of account stands in the way. A previous rejection shows its reason above.
 */
export function VerifyFormShell({ kind, title, description, children }: { kind: VerificationKind; title: string; description: string; children: ReactNode }) {
  const query = useVerificationStatusQuery();
  let body: ReactNode;
  if (query.isPending) {
    body = (
      <Card className="slg-verify-form-card">
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  } else if (query.isError) {
    body = <QueryError variant="page" title={T.loadFailed} error={query.error} onRetry={() => void query.refetch()} />;
  } else {
    const status = query.data;
    const latest = latestOf(status, kind);
    const blocker = blockingKind(status, kind);
    const back = (
      <LinkButton to={VERIFY_PATHS.overview} type="primary">
        {T.form.back}
      </LinkButton>
    );
    if (latest && latest.status !== 'REJECTED') {
      const approved = latest.status === 'APPROVED';
      body = (
        <Card className="slg-verify-form-card">
          <Alert type={approved ? 'success' : 'info'} showIcon title={T.form.live(kind, approved)} description={T.form.liveHint} action={back} className="slg-verify-notice" />
        </Card>
      );
    } else if (blocker) {
      body = (
        <Card className="slg-verify-form-card">
          <Alert type="warning" showIcon title={T.form.blockedTitle} description={T.blocked(blocker)} action={back} className="slg-verify-notice" />
        </Card>
      );
    } else {
      body = (
        <Card className="slg-verify-form-card">
          {latest?.status === 'REJECTED' ? <Alert type="error" showIcon title={T.form.rejected(latest.reason)} className="slg-verify-rejected" /> : null}
          <p className="slg-verify-privacy">
            <SafetyCertificateOutlined aria-hidden /> {T.privacy}
          </p>
          {children}
        </Card>
      );
    }
  }

  return (
    <div className="slg-page slg-verify">
      <PageHeader
        title={title}
        description={description}
        back={
          <LinkButton to={VERIFY_PATHS.overview} type="text" icon={<ArrowLeftOutlined aria-hidden />}>
            {T.form.back}
          </LinkButton>
        }
      />
      {body}
    </div>
  );
}

/** The consent every form ends with, and its submit button (busy while the request or an upload runs). */
export function ConsentAndSubmit({ busy }: { busy: boolean }) {
  return (
    <>
      <Form.Item
        name="agree"
        valuePropName="checked"
        rules={[{ validator: (_rule, value: boolean | undefined) => (value ? Promise.resolve() : Promise.reject(new Error(T.form.agreeRequired))) }]}
      >
        <Checkbox>{T.form.agree}</Checkbox>
      </Form.Item>
      <Form.Item className="slg-verify-actions">
        <Button type="primary" htmlType="submit" loading={busy} disabled={busy}>
          {T.form.submit}
        </Button>
      </Form.Item>
    </>
  );
}

/**
 * Where a refused submission's message goes: the field it names (by business code or by the exact
 * message of a field rule), or — for anything else — the client's one toast.
 */
export type ErrorPlacement<Field extends string> = { codes?: Partial<Record<number, Field>>; messages?: Partial<Record<string, Field>> };

/**
 * A submission: on success the overview shows the request as 审核中 and the page goes back to it; a
 * refusal goes on its field, or stays one toast (and a conflict — already submitted elsewhere — reloads
 * the status, so the page shows why).
 */
export function useVerificationSubmit<Input, Field extends string>(
  form: FormInstance,
  submit: (input: Input) => Promise<Verification>,
  placement: ErrorPlacement<Field>,
) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: submit,
    onSuccess: async (submitted) => {
      toast.success(T.form.submitted);
      await rememberSubmitted(queryClient, submitted);
      void navigate(VERIFY_PATHS.overview);
    },
    onError: (error) => {
      if (!isApiError(error)) return;
      const field = placement.codes?.[error.code] ?? (error.code === ErrorCodes.VALIDATION.code ? placement.messages?.[error.message] : undefined);
      if (field) {
        claimError(error);
        form.setFields([{ name: field, errors: [error.message] }]);
        return;
      }
      if (error.status === 409) void queryClient.invalidateQueries({ queryKey: verificationKeys.all });
    },
  });
}
