import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Typography } from 'antd';
import { useState } from 'react';
import { invalidateMoneyQueries } from '../../../api/billing';
import { claimError, isApiError } from '../../../api/client';
import { deleteSubAccount, invalidateSubAccounts, type SubAccountView } from '../../../api/subAccounts';
import { toast } from '../../../api/toast';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { CHILD_ACCOUNT_TEXTS } from './texts';

const T = CHILD_ACCOUNT_TEXTS.remove;

/** The server's 409 while unreleased instances need the main account's consent to take them over. */
function isUnreleasedInstances(error: unknown): error is Error {
  return isApiError(error) && error.status === 409 && error.message.includes('未释放的实例');
}

/**
 * 删除子账号: names the effect first; when the server answers that instances are still running, says so
 * and offers 转移并删除, which deletes with transferResources=true.
 */
export function DeleteSubAccountDialog({ sub, onClose }: { sub: SubAccountView; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [instancesMessage, setInstancesMessage] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (transferResources: boolean) => deleteSubAccount(sub.id, transferResources),
    onSuccess: (result) => {
      toast.success(result.transferred > 0 ? T.doneTransferred(result.transferred) : T.done);
      void invalidateSubAccounts(queryClient);
      void invalidateMoneyQueries(queryClient);
      onClose();
    },
    onError: (error) => {
      if (isUnreleasedInstances(error)) {
        claimError(error);
        setInstancesMessage(error.message);
      }
    },
  });
  const transferring = instancesMessage !== null;
  return (
    <ConfirmDialog
      open
      danger
      texts={{ title: T.title(sub.username), confirm: transferring ? T.transferConfirm : T.confirm, cancel: T.cancel }}
      loading={remove.isPending}
      onConfirm={() => remove.mutate(transferring)}
      onCancel={onClose}
    >
      <Typography.Paragraph>{T.body}</Typography.Paragraph>
      {transferring ? <Alert type="warning" showIcon title={T.transferTitle} description={`${instancesMessage}。${T.transferBody}`} /> : null}
    </ConfirmDialog>
  );
}
