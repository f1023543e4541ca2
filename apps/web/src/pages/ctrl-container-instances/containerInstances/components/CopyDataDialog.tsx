import { COPY_PATH_MAX, copyPathProblem, DATA_DISK_MOUNT_PATH, normalizeCopyPath } from '@slg/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Form, Input, Progress, Select, Skeleton, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { fetchInstances, invalidateAfterInstanceChange, type InstanceView } from '../../../../api/compute';
import { startCopy, useCopyTasksQuery, type CopyTask } from '../../../../api/copyData';
import { queryKeys } from '../../../../api/queryKeys';
import { toast } from '../../../../api/toast';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
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
 * overwritten), then the copy's progress, polled until it is done or failed, with the instance's recent
 * copies. Offered where `canDo(instance, 'copy_data')`.
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
          <Progress
            percent={task.progress}
            size="small"
            status={task.status === 'running' ? 'active' : task.status === 'done' ? 'success' : 'exception'}
            aria-label={`${T.status[task.status]} ${task.progress}%`}
          />
          <Typography.Text type="secondary">
            {T.status[task.status]} · {T.size(task.copiedGb, task.totalGb)} · {formatDateTime(task.createdAt)}
          </Typography.Text>
          {task.status === 'failed' && task.statusReason ? <Typography.Text type="danger">{T.failedBecause(task.statusReason)}</Typography.Text> : null}
        </li>
      ))}
    </ul>
  );
}

/** 拷贝中 45% on the instance row while a copy runs from or into it (nothing otherwise). */
export function CopyProgress({ instance }: { instance: Pick<InstanceView, 'copyTask'> }) {
  const running = instance.copyTask;
  if (!running) return null;
  const detail = running.role === 'source' ? T.rowSource(running.peerInstanceId, running.path) : T.rowTarget(running.peerInstanceId, running.path);
  return (
    <Tooltip title={detail}>
      <span className="slg-copy-progress" aria-label={`${T.row(running.progress)}，${detail}`}>
        <Progress type="circle" percent={running.progress} size={14} showInfo={false} />
        <Typography.Text type="secondary">{T.row(running.progress)}</Typography.Text>
      </span>
    </Tooltip>
  );
}
