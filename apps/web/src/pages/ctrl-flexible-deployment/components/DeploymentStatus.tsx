import { LockOutlined, SyncOutlined } from '@ant-design/icons';
import { dictItemOf, ELASTIC_DEPLOYMENT_STATUSES, INSTANCE_STATUSES, labelOf } from '@slg/shared';
import { Tag, Tooltip, Typography } from 'antd';
import type { ElasticContainerView, ElasticDeploymentView } from '../../../api/elastic';
import { ELASTIC_TEXTS } from '../texts';

const T = ELASTIC_TEXTS;

/** The status tag (dictionary colour, spinning while it stops) and the platform's reason under it. */
export function DeploymentStatus({ deployment }: { deployment: ElasticDeploymentView }) {
  const item = dictItemOf(ELASTIC_DEPLOYMENT_STATUSES, deployment.status);
  return (
    <div className="slg-elastic-cell">
      <Tag color={item?.color ?? 'default'} icon={deployment.status === 'STOPPING' ? <SyncOutlined spin aria-hidden /> : undefined}>
        {labelOf(ELASTIC_DEPLOYMENT_STATUSES, deployment.status)}
      </Tag>
      {deployment.statusReason ? (
        <Typography.Text type={deployment.status === 'STOPPED' ? 'warning' : 'secondary'} className="slg-elastic-note">
          {deployment.statusReason}
        </Typography.Text>
      ) : null}
    </div>
  );
}

/** The name with a lock when the deployment is locked. */
export function LockMark({ deployment }: { deployment: Pick<ElasticDeploymentView, 'locked'> }) {
  if (!deployment.locked) return null;
  return (
    <Tooltip title={T.actions.lockedHint}>
      <LockOutlined aria-label={T.status.locked} role="img" className="slg-elastic-lock" />
    </Tooltip>
  );
}

/**
 * 容器: running of wanted (a job: succeeded of wanted, and how many run), and 等待调度 N with the
 * reason on hover when containers wait for stock.
 */
export function ContainerCounts({ deployment }: { deployment: ElasticDeploymentView }) {
  const job = deployment.type === 'JOB';
  return (
    <div className="slg-elastic-cell">
      <span className="slg-elastic-nowrap">
        {job ? T.status.jobDone(deployment.succeededNum, deployment.replicaNum) : T.status.running(deployment.runningNum, deployment.replicaNum)}
      </span>
      {job && deployment.runningNum > 0 ? (
        <Typography.Text type="secondary" className="slg-elastic-note">
          {T.status.jobRunning(deployment.runningNum)}
        </Typography.Text>
      ) : null}
      {deployment.liveNum > deployment.runningNum ? (
        <Typography.Text type="secondary" className="slg-elastic-note">
          {T.status.busy(deployment.liveNum - deployment.runningNum)}
        </Typography.Text>
      ) : null}
      {job && deployment.failedNum > 0 ? (
        <Typography.Text type="danger" className="slg-elastic-note">
          {T.status.failed(deployment.failedNum)}
        </Typography.Text>
      ) : null}
      {deployment.waitingNum > 0 ? (
        <Tooltip title={deployment.waitingReason ?? undefined}>
          <Tag color="warning" className="slg-elastic-waiting" tabIndex={0}>
            {T.status.waiting(deployment.waitingNum)}
          </Tag>
        </Tooltip>
      ) : null}
    </div>
  );
}

/** A container's status tag (instance dictionary) and its reason. */
export function ContainerStatus({ container }: { container: ElasticContainerView }) {
  const item = dictItemOf(INSTANCE_STATUSES, container.status);
  const busy = item?.color === 'processing';
  return (
    <div className="slg-elastic-cell">
      <Tag color={item?.color ?? 'default'} icon={busy ? <SyncOutlined spin aria-hidden /> : undefined}>
        {labelOf(INSTANCE_STATUSES, container.status)}
      </Tag>
      {container.statusReason ? (
        <Typography.Text type="secondary" className="slg-elastic-note">
          {container.statusReason}
        </Typography.Text>
      ) : null}
    </div>
  );
}
