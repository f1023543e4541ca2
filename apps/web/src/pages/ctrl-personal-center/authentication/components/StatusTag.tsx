import { VERIFICATION_STATUS_LABELS, type VerificationStatus } from '@slg/shared';
import { Tag } from 'antd';

const COLORS: Record<VerificationStatus | 'NONE', string> = { NONE: 'default', PENDING: 'processing', APPROVED: 'success', REJECTED: 'error' };

/** 未认证 / 审核中 / 已认证 / 未通过. */
export function VerificationStatusTag({ status }: { status: VerificationStatus | null | undefined }) {
  const key = status ?? 'NONE';
  return (
    <Tag color={COLORS[key]} className="slg-verify-tag">
      {VERIFICATION_STATUS_LABELS[key]}
    </Tag>
  );
}
