import { COPY_PATH_MAX, copyPathProblem, DATA_DISK_MOUNT_PATH, normalizeCopyPath } from '@slg/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Progress, Select, Skeleton, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { fetchInstances, invalidateAfterInstanceChange, type InstanceView } from '../../../../api/compute';
import { cancelCopy, startCopy, useCopyTasksQuery, type CopyStatus, type CopyTask } from '../../../../api/copyData';
import { queryKeys } from '../../../../api/queryKeys';
import { toast } from '../../../../api/toast';
import { ConfirmAction, ConfirmDialog } from '../../../../components/ConfirmDialog';
import { formatDateTime } from '../../../../components/DateTime';
import { QueryError } from '../../../../components/QueryError';
import { canDo } from '../instanceRules';
import { DialogError, useDialogError } from './billingParts';
import { COPY_TEXTS as T } from './copyTexts';
import './copy.css';

/** The list API's largest page: every instance of an account fits in it for choosing a target. */
const TARGETS_PAGE_SIZE = 100;

/** The instances `source` may copy into: the caller's others in its region that can take a copy now. */
export function copyTargetsOf(source: Pick<InstanceView, 'instanceId' | 'zoneId'>, instances: readonly InstanceView[]): InstanceView[] {
  return instances.filter((item) => item.instanceId !== source.instanceId && item.zoneId === source.zoneId && canDo(item, 'copy_data') && item.copyTask?.role !== 'target');
}

/**
 * 跨实例拷贝: a target among the caller's other instances in the same region, the path on the data
 * disk (default all of it), what happens (the same path on the target, files of the same name
 * overwritten), then the copy's progress, polled until it is done or failed (or cancelled with
 * 取消拷贝), with the instance's recent copies. Offered where `canDo(instance, 'copy_data')`.
 */
export function CopyDataDialog({ instance, open, onClose }: { instance: InstanceView; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [targetId, setTargetId] = useState<string | null>(null);
  const [path, setPath] = useState<string>(DATA_DISK_MOUNT_PATH);
  const [pathTouched, setPathTouched] = useState(false);
  const error = useDialogError();
  const instances = useQuery({
    queryKey: [...queryKeys.instances, 'copy-targets', TARGETS_PAGE_SIZE] as const,
    queryFn: () => fetchInstances({ page: 1, pageSize: TARGETS_PAGE_SIZE }),
    enabled: open,
  });
  const tasks = useCopyTasksQuery(instance.instanceId, open);
  const targets = copyTargetsOf(instance, instances.data?.list ?? []);
  const target = targets.find((item) => item.instanceId === targetId) ?? null;
  const pathProblem = copyPathProblem(path);
  const copy = useMutation({
    mutationFn: () => startCopy({ fromInstanceId: instance.instanceId, toInstanceId: target?.instanceId ?? '', path: normalizeCopyPath(path) }),
    onSuccess: (task) => {
      toast.success(T.started(task.toInstanceName));
      setTargetId(null);
    },
    onError: (failure) => error.show(failure),
    // The copies are under the instances key: this refreshes the history and the list's progress.
    onSettled: () => void invalidateAfterInstanceChange(queryClient),
  });
  const close = () => {
    setTargetId(null);
    setPath(DATA_DISK_MOUNT_PATH);
    setPathTouched(false);
    error.clear();
    onClose();
  };

  let targetField;
  if (instances.isError && !instances.data) targetField = <QueryError title={T.targetsLoadFailed} error={instances.error} onRetry={() => void instances.refetch()} />;
  else if (!instances.data) targetField = <Skeleton.Input active block />;
  else if (targets.length === 0) targetField = <Alert type="info" showIcon title={T.noTargets(instance.zoneName)} />;
  else
    targetField = (
      <Select
        id={`copy-target-${instance.instanceId}`}
        aria-label={T.target}
        placeholder={T.targetPlaceholder}
        value={target?.instanceId ?? null}
        onChange={(value: string) => {
          error.clear();
          setTargetId(value);
        }}
        options={targets.map((item) => ({ value: item.instanceId, label: T.targetOption(item.name, item.instanceId) }))}
        style={{ width: '100%' }}
      />
    );
  const pathId = `copy-path-${instance.instanceId}`;
  const showPathProblem = pathTouched && pathProblem !== null;

  return (
    <ConfirmDialog
      open={open}
      danger
      texts={{ title: T.title(instance.name), confirm: T.submit, cancel: T.cancel }}
      loading={copy.isPending}
      okButtonProps={{ disabled: target === null || pathProblem !== null }}
      onConfirm={() => {
        setPathTouched(true);
        if (target === null || pathProblem !== null) return;
        error.clear();
        copy.mutate();
      }}
      onCancel={close}
    >
      <Space orientation="vertical" size={12} className="slg-instance-dialog">
        <Typography.Text type="secondary">{T.intro}</Typography.Text>
        <Form layout="vertical" requiredMark={false} component="div">
          <Form.Item label={T.target} htmlFor={`copy-target-${instance.instanceId}`}>
            {targetField}
          </Form.Item>
          <Form.Item label={T.path} htmlFor={pathId} validateStatus={showPathProblem ? 'error' : undefined} help={showPathProblem ? pathProblem : T.pathHelp}>
            <Input
              id={pathId}
              value={path}
              maxLength={COPY_PATH_MAX}
              className="slg-instance-mono"
              onChange={(event) => {
                error.clear();
                setPathTouched(true);
                setPath(event.target.value);
              }}
            />
          </Form.Item>
        </Form>
        {target && pathProblem === null ? <Alert type="warning" showIcon title={T.effect(normalizeCopyPath(path), target.name)} /> : null}
        <DialogError message={error.message} />
        <Typography.Text strong>{T.history}</Typography.Text>
        <CopyTaskList tasks={tasks.data} failed={tasks.isError && !tasks.data} onRetry={() => void tasks.refetch()} error={tasks.error} />
      </Space>
    </ConfirmDialog>
  );
}

const PROGRESS_STATUS: Record<CopyStatus, 'active' | 'success' | 'exception' | 'normal'> = { running: 'active', done: 'success', failed: 'exception', cancelled: 'normal' };

/**
 * 取消拷贝 of a running copy, after a dialog that names the effect: what was copied stays on the
 * target, the rest is not copied. The instance list and the copies refresh either way (a copy that
 * ended meanwhile is refused with one toast and then shows how it ended).
 */
export function CancelCopyButton({ taskId, fromName, toName, path }: { taskId: string; fromName: string; toName: string; path: string }) {
  const queryClient = useQueryClient();
  return (
    <ConfirmAction
      danger
      texts={T.cancelDialog}
      onConfirm={async () => {
        try {
          await cancelCopy(taskId);
          toast.success(T.cancelDone);
        } finally {
          // The copies are under the instances key: the row's progress and the history both refresh.
          void invalidateAfterInstanceChange(queryClient);
        }
      }}
      trigger={(open) => (
        <Button type="link" size="small" danger className="slg-copy-cancel" onClick={open}>
          {T.cancelButton}
        </Button>
      )}
    >
      <Space orientation="vertical" size={8}>
        <Typography.Text>{T.cancelWhat(fromName, toName, path)}</Typography.Text>
        <Alert type="warning" showIcon title={T.cancelEffect} />
      </Space>
    </ConfirmAction>
  );
}

function CopyTaskList({ tasks, failed, error, onRetry }: { tasks: CopyTask[] | undefined; failed: boolean; error: unknown; onRetry: () => void }) {
  if (failed) return <QueryError title={T.historyLoadFailed} error={error} onRetry={onRetry} />;
  if (!tasks) return <Skeleton active title={false} paragraph={{ rows: 2 }} />;
  if (tasks.length === 0) return <Typography.Text type="secondary">{T.historyEmpty}</Typography.Text>;
  return (
    <ul className="slg-copy-tasks" aria-label={T.history}>
      {tasks.map((task) => (
        <li key={task.taskId} className="slg-copy-task">
          <Typography.Text>{task.role === 'source' ? T.toPeer(task.peerInstanceName, task.peerInstanceId) : T.fromPeer(task.peerInstanceName, task.peerInstanceId)}</Typography.Text>
          <Typography.Text type="secondary" className="slg-instance-mono slg-copy-path">
            {task.path}
          </Typography.Text>
          <Progress percent={task.progress} size="small" status={PROGRESS_STATUS[task.status]} aria-label={`${T.status[task.status]} ${task.progress}%`} />
          <span className="slg-copy-task-line">
            <Typography.Text type="secondary">
              {T.status[task.status]} · {T.size(task.copiedGb, task.totalGb)} · {formatDateTime(task.createdAt)}
            </Typography.Text>
            {task.status === 'running' ? <CancelCopyButton taskId={task.taskId} fromName={task.fromInstanceName} toName={task.toInstanceName} path={task.path} /> : null}
          </span>
          {task.status === 'failed' && task.statusReason ? <Typography.Text type="danger">{T.failedBecause(task.statusReason)}</Typography.Text> : null}
          {task.status === 'cancelled' ? <Typography.Text type="secondary">{T.cancelledNote(task.copiedGb)}</Typography.Text> : null}
        </li>
      ))}
    </ul>
  );
}

/** 拷贝中 45% on the instance row while a copy runs from or into it, with 取消拷贝 (nothing otherwise). */
export function CopyProgress({ instance }: { instance: Pick<InstanceView, 'copyTask' | 'name'> }) {
  const running = instance.copyTask;
  if (!running) return null;
  const source = running.role === 'source';
  const detail = source ? T.rowSource(running.peerInstanceId, running.path) : T.rowTarget(running.peerInstanceId, running.path);
  return (
    <span className="slg-copy-row">
      <Tooltip title={detail}>
        <span className="slg-copy-progress" aria-label={`${T.row(running.progress)}，${detail}`}>
          <Progress type="circle" percent={running.progress} size={14} showInfo={false} />
          <Typography.Text type="secondary">{T.row(running.progress)}</Typography.Text>
        </span>
      </Tooltip>
      <CancelCopyButton
        taskId={running.taskId}
        fromName={source ? instance.name : running.peerInstanceId}
        toName={source ? running.peerInstanceId : instance.name}
        path={running.path}
      />
    </span>
  );
}
