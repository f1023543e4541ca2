import { useQueryClient } from '@tanstack/react-query';
import { Button, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { deleteElastic, invalidateAfterElasticChange, lockElastic, stopElastic, type ElasticDeploymentView } from '../../../api/elastic';
import { toast } from '../../../api/toast';
import { ConfirmAction } from '../../../components/ConfirmDialog';
import { LinkButton } from '../../../components/LinkButton';
import { viewContainerPath } from '../paths';
import { ELASTIC_TEXTS } from '../texts';
import { EditDeploymentDialog } from './EditDeploymentDialog';

const T = ELASTIC_TEXTS.actions;

interface DeploymentActionsProps {
  deployment: ElasticDeploymentView;
  /** Buttons (a card, the deployment's page) instead of links (a table row). */
  block?: boolean;
  /** Without 查看容器 (on the deployment's own page). */
  withView?: boolean;
  /** After 删除 (the deployment's page goes back to the list). */
  onDeleted?: () => void;
}

/** 查看容器, 编辑, 停止, 锁定 / 解锁, 删除; a locked deployment refuses the three that change it, and says why. */
export function DeploymentActions({ deployment, block = false, withView = true, onDeleted }: DeploymentActionsProps) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [locking, setLocking] = useState(false);
  const type = block ? 'default' : 'link';
  const running = deployment.status === 'RUNNING';
  const { locked, name } = deployment;
  const refresh = () => invalidateAfterElasticChange(queryClient);
  const editHint = locked ? T.lockedHint : running ? undefined : T.notRunningEdit;
  const stopHint = locked ? T.lockedHint : running ? undefined : T.notRunningStop;
  const removeHint = locked ? T.lockedHint : undefined;

  async function toggleLock() {
    setLocking(true);
    try {
      await lockElastic(deployment.id, !locked);
      toast.success(locked ? T.unlockDone : T.lockDone);
      await refresh();
    } catch {
      // The client showed the refusal.
    } finally {
      setLocking(false);
    }
  }

  return (
    <Space size={block ? 8 : 0} wrap className={block ? 'slg-elastic-actions-block' : 'slg-elastic-actions'}>
      {withView ? (
        <LinkButton type={type} className="slg-elastic-action" to={viewContainerPath(deployment.deploymentUid)} aria-label={T.label(T.view, name)}>
          {T.view}
        </LinkButton>
      ) : null}
      <Tooltip title={editHint}>
        <Button type={type} className="slg-elastic-action" disabled={Boolean(editHint)} aria-label={T.label(T.edit, name)} onClick={() => setEditing(true)}>
          {T.edit}
        </Button>
      </Tooltip>
      <ConfirmAction
        danger
        texts={{ title: T.stopTitle(name), confirm: T.stopConfirm, cancel: T.cancel }}
        onConfirm={async () => {
          await stopElastic(deployment.id);
          toast.success(T.stopDone);
          await refresh();
        }}
        trigger={(open) => (
          <Tooltip title={stopHint}>
            <Button type={type} danger className="slg-elastic-action" disabled={Boolean(stopHint)} aria-label={T.label(T.stop, name)} onClick={open}>
              {T.stop}
            </Button>
          </Tooltip>
        )}
      >
        <Typography.Paragraph>{T.stopBody}</Typography.Paragraph>
      </ConfirmAction>
      <Tooltip title={locked ? undefined : T.lockBody}>
        <Button type={type} className="slg-elastic-action" loading={locking} aria-label={T.label(locked ? T.unlock : T.lock, name)} onClick={() => void toggleLock()}>
          {locked ? T.unlock : T.lock}
        </Button>
      </Tooltip>
      <ConfirmAction
        danger
        texts={{ title: T.removeTitle(name), confirm: T.removeConfirm, cancel: T.cancel }}
        onConfirm={async () => {
          await deleteElastic(deployment.id);
          toast.success(T.removeDone);
          onDeleted?.();
          await refresh();
        }}
        trigger={(open) => (
          <Tooltip title={removeHint}>
            <Button type={type} danger className="slg-elastic-action" disabled={Boolean(removeHint)} aria-label={T.label(T.remove, name)} onClick={open}>
              {T.remove}
            </Button>
          </Tooltip>
        )}
      >
        <Typography.Paragraph>{T.removeBody}</Typography.Paragraph>
      </ConfirmAction>
      {editing ? <EditDeploymentDialog deployment={deployment} onClose={() => setEditing(false)} /> : null}
    </Space>
  );
}
