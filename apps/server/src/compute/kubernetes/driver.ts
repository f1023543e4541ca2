import { PassThrough, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { ApiException, CoreV1Api, Exec, KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { INode } from 'kubernetes-models/v1/Node';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { DATA_DISK_MOUNT_PATH, DATASET_MOUNT_ROOT, FILE_STORAGE_MOUNT } from '@slg/shared';
import type { Database } from '../../db/client.js';
import { hosts } from '../../db/schema/index.js';
import { DriverError, type ComputeDriver, type DatasetMount, type MachineMounts, type MachineSpec, type ObservedCopy, type ObservedImage, type ObservedMachine } from '../driver.js';
import { INSTANCE_LABEL } from '../docker/engines.js';
import { COPY_SOURCE_MISSING } from '../docker/machine-files.js';
import { imageReference } from '../images.js';
import { listObjects, type ListedKind } from './lists.js';
import { ImageRegistry } from './registry.js';
import { syncHostsFromNodes, type NodeSync } from './nodes.js';
import {
  claimOf,
  COMMAND_EXITED_MESSAGE,
  COPY_LABEL,
  copyJobName,
  copyJobOf,
  DISK_LABEL,
  FIELD_MANAGER,
  FILE_STORAGE_VOLUME,
  IMAGE_LABEL,
  saveImageJobName,
  saveImageJobOf,
  systemClaimName,
  GPU_RESOURCE,
  MACHINE_CONTAINER,
  objectNames,
  secretOf,
  serviceOf,
  statefulSetOf,
  type MachineShape,
  type ServicePort,
} from './manifests.js';

/** The shape the StatefulSet was last applied with, kept on it so stop and start re-apply the whole manifest (server-side apply drops fields left out). */
const SHAPE_ANNOTATION = 'slg.io/shape';
const SSH_PORT = 22;
/** The longest a command in a machine (chpasswd, df) may run. */
const EXEC_TIMEOUT_MS = 60_000;
const GIB = 1024 ** 3;

export interface KubernetesDriverOptions {
  db: Database;
  kubeConfig: KubeConfig;
  /** K8S_NAMESPACE: every object of the platform lives here. */
  namespace: string;
  /** K8S_STORAGE_CLASS for data disks; the cluster's default class when unset. */
  storageClass?: string;
  /** K8S_SERVICE_TYPE: node ports (default) or a load balancer's address. */
  serviceType: 'NodePort' | 'LoadBalancer';
  /** K8S_NODE_PORTS: the cluster's node port range (its --service-node-port-range), where custom services get their public port. */
  nodePorts: { min: number; max: number };
  baseImage: string;
  /** REGISTRY_URL: where saved images go (`host[:port][/path]`); nodes pull private images from there. */
  registryUrl?: string;
  /** K8S_IMAGE_BUILDER: the kaniko executor image the save-image Job builds with. */
  builderImage: string;
  /**
   * K8S_STORAGE_CLAIM: a ReadWriteMany claim of the namespace holding STORAGE_ROOT's tree; machines
   * mount their 文件存储 as its sub-path `<ownerId>/<zoneId>`. Without it no machine gets one (observe
   * reports none, so the platform does not count it as mounted).
   */
  storageClaim?: string;
}

/** The field manager of a cancel: it owns only `spec.suspend`, so it leaves the Job's other fields alone. */
const CANCEL_FIELD_MANAGER = 'slg-compute-cancel';

/** What the driver reads of the cluster in one pass. */
interface Snapshot {
  sets: Map<string, IStatefulSet>;
  pods: Map<string, IPod>;
  claims: Map<string, IPersistentVolumeClaim[]>;
  services: Map<string, IService>;
  nodes: Map<string, INode>;
}

function byInstance<T extends { metadata?: { labels?: Record<string, string> } }>(items: readonly T[]): Map<string, T> {
  return new Map(items.flatMap((item) => (item.metadata?.labels?.[INSTANCE_LABEL] ? [[item.metadata.labels[INSTANCE_LABEL], item] as const] : [])));
}

function groupedByInstance<T extends { metadata?: { labels?: Record<string, string> } }>(items: readonly T[]): Map<string, T[]> {
  const grouped = new Map<string, T[]>();
  for (const item of items) {
    const id = item.metadata?.labels?.[INSTANCE_LABEL];
    if (id) grouped.set(id, [...(grouped.get(id) ?? []), item]);
  }
  return grouped;
}

const terminatedOf = (pod: IPod | undefined, container: string, init = false) =>
  (init ? pod?.status?.initContainerStatuses : pod?.status?.containerStatuses)?.find((status) => status.name === container)?.state?.terminated;
const kilobytesToGb = (kilobytes: number) => Math.round((kilobytes / 1024 ** 2) * 100) / 100;
const jobCondition = (job: IJob, type: string) => job.status?.conditions?.some((condition) => condition.type === type && condition.status === 'True') ?? false;

type ContainerStatus = NonNullable<NonNullable<IPod['status']>['containerStatuses']>[number];

const machineStatusOf = (pod: IPod | undefined): ContainerStatus | undefined => pod?.status?.containerStatuses?.find((status) => status.name === MACHINE_CONTAINER);
const exitOfMessage = (message: string | undefined): number | null => {
  const match = new RegExp(`^${COMMAND_EXITED_MESSAGE} (\\d+)$`).exec(message?.trim() ?? '');
  return match ? Number(match[1]) : null;
};

/**
 * The exit code of a command machine's command, when its pod says the command ended: the container's
 * termination message (manifests.ts, KUBERNETES_COMMAND_INIT), of the container that ended or, once the
 * kubelet restarted it, of its last state. null while the command runs (or never ran in this pod).
 */
export function commandExitOf(pod: IPod | undefined): number | null {
  const status = machineStatusOf(pod);
  return exitOfMessage(status?.state?.terminated?.message) ?? exitOfMessage(status?.lastState?.terminated?.message);
}

/** The mounts of the storage claim in a pod's machine container. */
const storageMountsOfPod = (pod: IPod) =>
  pod.spec?.containers.find((container) => container.name === MACHINE_CONTAINER)?.volumeMounts?.filter((mount) => mount.name === FILE_STORAGE_VOLUME) ?? [];

/** The 文件存储 (its key) a pod has at /root/slg-fs: the sub-path of its machine container's mount, null for none. */
const fileStorageOfPod = (pod: IPod): string | null => storageMountsOfPod(pod).find((mount) => mount.mountPath === FILE_STORAGE_MOUNT)?.subPath ?? null;

/** The datasets (their names) a pod has under /root/slg-pub. */
const datasetsOfPod = (pod: IPod): string[] =>
  storageMountsOfPod(pod).flatMap((mount) => (mount.mountPath.startsWith(`${DATASET_MOUNT_ROOT}/`) ? [mount.mountPath.slice(DATASET_MOUNT_ROOT.length + 1)] : []));

/** The run a pod was made for (its SLG_RUN), to tell a new run's pod from the last run's. */
const runOfPod = (pod: IPod): string | undefined => pod.spec?.containers.find((container) => container.name === MACHINE_CONTAINER)?.env?.find((variable) => variable.name === 'SLG_RUN')?.value;

/** Why a pod does not run, in words the user can act on; null while nothing is wrong. */
export function podFailure(pod: IPod): string | null {
  const scheduled = pod.status?.conditions?.find((condition) => condition.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    return /nvidia\.com\/gpu/.test(scheduled.message ?? '') ? '主机上空闲的 GPU 不足，无法启动实例' : `实例无法调度到所在主机：${scheduled.message ?? ''}`;
  }
  if (pod.status?.phase === 'Failed') return `实例的容器已退出：${pod.status.message ?? pod.status.reason ?? '未知原因'}`;
  for (const container of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) {
    const waiting = container.state?.waiting;
    if (!waiting?.reason) continue;
    if (waiting.reason === 'ErrImagePull' || waiting.reason === 'ImagePullBackOff') return `镜像拉取失败：${waiting.message ?? container.image}`;
    if (waiting.reason === 'CrashLoopBackOff') return '实例的容器反复退出，请重置系统或联系客服';
    if (waiting.reason === 'CreateContainerConfigError') return `实例的容器配置有误：${waiting.message ?? ''}`;
  }
  return null;
}

/**
 * Instances as StatefulSets of one pod on the node the platform chose (docs/compute.md "The Kubernetes
 * driver"): every object applied server-side under one field manager, so every call can be repeated;
 * `observe` lists each kind once per pass by the instance label.
 */
export class KubernetesDriver implements ComputeDriver {
  readonly name = 'kubernetes' as const;
  readonly serviceRouting = 'host-port' as const;
  readonly publicPortRange: { min: number; max: number };
  readonly mountsFileStorage: boolean;
  private readonly objects: KubernetesObjectApi;
  private readonly core: CoreV1Api;
  private readonly exec: Exec;
  /** The last measured data-disk usage (GB) of each machine, kept for while it is stopped. */
  private readonly lastUsage = new Map<string, number>();

  private readonly registry: ImageRegistry | null;

  constructor(private readonly options: KubernetesDriverOptions) {
    this.objects = KubernetesObjectApi.makeApiClient(options.kubeConfig);
    this.core = options.kubeConfig.makeApiClient(CoreV1Api);
    this.exec = new Exec(options.kubeConfig);
    this.registry = options.registryUrl ? new ImageRegistry(options.registryUrl) : null;
    this.publicPortRange = options.nodePorts;
    this.mountsFileStorage = options.storageClaim !== undefined;
  }

  private get namespace(): string {
    return this.options.namespace;
  }

  /** Runs a call against the API server, turning its refusals into DriverErrors (docs/compute.md "DriverError"). */
  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof DriverError) throw error;
      const code = error instanceof ApiException ? error.code : 0;
      const retryable = code === 0 || code === 409 || code === 429 || code >= 500;
      throw new DriverError(`Kubernetes ${what}失败（${code || '无应答'}）：${error instanceof Error ? error.message.slice(0, 300) : String(error)}`, retryable);
    }
  }

  private apply<T extends KubernetesObject>(object: T, what: string, fieldManager = FIELD_MANAGER): Promise<T> {
    return this.call(what, () => this.objects.patch(object, undefined, undefined, fieldManager, true, PatchStrategy.ServerSideApply));
  }

  private list<T>(kind: ListedKind, labelSelector: string | undefined, metadataOnly = false): Promise<T[]> {
    return this.call(`列出 ${kind} `, () =>
      listObjects<T>(this.options.kubeConfig, kind, { ...(kind === 'Node' ? {} : { namespace: this.namespace }), ...(labelSelector ? { labelSelector } : {}), metadataOnly }),
    );
  }

  /** The object, or null when the server has none of that name. */
  private async read<T extends KubernetesObject>(apiVersion: string, kind: string, name: string): Promise<T | null> {
    try {
      return await this.objects.read<T>({ apiVersion, kind, metadata: { name, namespace: this.namespace } });
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return null;
      return this.call(`读取 ${kind} ${name} `, () => Promise.reject(error as Error));
    }
  }

  private async remove(apiVersion: string, kind: string, name: string): Promise<void> {
    try {
      await this.objects.delete({ apiVersion, kind, metadata: { name, namespace: this.namespace } }, undefined, undefined, undefined, undefined, 'Background');
    } catch (error) {
      if (error instanceof ApiException && error.code === 404) return;
      await this.call(`删除 ${kind} ${name} `, () => Promise.reject(error as Error));
    }
  }

  private async hostShares(hostId: string): Promise<{ cpuPerGpu: number; memoryGbPerGpu: number }> {
    const [host] = await this.options.db.select({ cpuPerGpu: hosts.cpuPerGpu, memoryGbPerGpu: hosts.memoryGbPerGpu }).from(hosts).where(eq(hosts.id, hostId));
    if (!host) throw new DriverError(`主机 ${hostId} 不存在`, false);
    return host;
  }

  private applyMachine(shape: MachineShape): Promise<IStatefulSet> {
    const manifest = statefulSetOf(shape);
    manifest.metadata = { ...manifest.metadata, annotations: { [SHAPE_ANNOTATION]: JSON.stringify(shape) } };
    return this.apply(manifest as KubernetesObject, '应用 StatefulSet ') as Promise<IStatefulSet>;
  }

  /** A store as the StatefulSet mounts it: the claim's sub-path, or nothing without a claim configured. */
  private fileStorageShape(key: string | null | undefined): MachineShape['fileStorage'] {
    return key && this.options.storageClaim ? { claim: this.options.storageClaim, key } : null;
  }

  /** Datasets as the StatefulSet mounts them: sub-paths of the claim, or none without a claim configured. */
  private datasetsShape(datasets: readonly DatasetMount[] | undefined): MachineShape['datasets'] {
    return datasets && datasets.length > 0 && this.options.storageClaim ? { claim: this.options.storageClaim, mounts: datasets.map(({ name, source }) => ({ name, source })) } : null;
  }

  private async shapeOf(instanceId: string): Promise<MachineShape | null> {
    const set = await this.read<IStatefulSet & KubernetesObject>('apps/v1', 'StatefulSet', objectNames(instanceId).statefulSet);
    const shape = set?.metadata?.annotations?.[SHAPE_ANNOTATION];
    return shape ? (JSON.parse(shape) as MachineShape) : null;
  }

  async create(spec: MachineSpec): Promise<void> {
    // The StatefulSet is applied last: once it exists, so does everything it needs.
    if (await this.shapeOf(spec.instanceId)) return;
    const image = await imageReference(this.options.db, spec.imageId, this.options);
    const namespace = this.namespace;
    const names = objectNames(spec.instanceId);
    let cloneFrom: MachineShape['cloneFrom'] = null;
    if (spec.cloneFrom) {
      const source = await this.shapeOf(spec.cloneFrom.instanceId);
      if (!source) throw new DriverError('源实例的磁盘已不存在，无法克隆', false);
      if (source.hostId !== spec.hostId) throw new DriverError('Kubernetes 上只能克隆到源实例所在的主机（磁盘在节点的本地存储上）', false);
      cloneFrom = { instanceId: source.instanceId, systemClaim: source.systemClaim, copyData: spec.cloneFrom.copyData };
    }
    await this.apply(secretOf(spec.instanceId, namespace, spec.rootPassword, spec.authorizedKeys) as KubernetesObject, '应用 Secret ');
    // An existing claim keeps its size: a repeated create must not undo a resize made since.
    if (!(await this.read('v1', 'PersistentVolumeClaim', names.dataClaim))) {
      await this.apply(claimOf(spec.instanceId, namespace, { kind: 'data', sizeGb: spec.dataDiskGb }, this.options.storageClass) as KubernetesObject, '应用 PersistentVolumeClaim ');
    }
    const systemClaim = systemClaimName(spec.instanceId, null);
    if (!(await this.read('v1', 'PersistentVolumeClaim', systemClaim))) {
      await this.apply(claimOf(spec.instanceId, namespace, { kind: 'system', name: systemClaim }, this.options.storageClass) as KubernetesObject, '应用 PersistentVolumeClaim ');
    }
    if (!(await this.read('v1', 'Service', names.service))) await this.applyService(spec.instanceId, { port: SSH_PORT, nodePort: null }, []);
    await this.applyMachine({
      instanceId: spec.instanceId,
      hostId: spec.hostId,
      namespace,
      image,
      imageId: spec.imageId,
      gpuNum: spec.gpuNum,
      cpuCores: spec.cpuCores,
      memoryGb: spec.memoryGb,
      replicas: 1,
      systemClaim,
      reinstalledFor: null,
      cloneFrom,
      fileStorage: this.fileStorageShape(spec.fileStorage),
      datasets: this.datasetsShape(spec.datasets),
      ...(spec.command ? { command: spec.command, run: Date.now() } : {}),
      ...(spec.env && Object.keys(spec.env).length > 0 ? { env: { ...spec.env } } : {}),
    });
  }

  async start(instanceId: string, gpuNum: number, mounts: MachineMounts): Promise<void> {
    const shape = await this.shapeOf(instanceId);
    if (!shape) throw new DriverError('实例的机器不存在，无法开机', false);
    const shares = gpuNum > 0 ? await this.hostShares(shape.hostId) : null;
    // Starting a command machine that is off, or whose command ended in this run, runs the command again: a new run.
    const pod = shape.command && shape.replicas === 1 ? await this.read<IPod & KubernetesObject>('v1', 'Pod', objectNames(instanceId).pod) : null;
    const ended = pod !== null && runOfPod(pod) === String(shape.run ?? 0) && commandExitOf(pod) !== null;
    // Mounts are part of the pod template: a machine already started keeps its pod (and mounts); one that starts gets a pod with these.
    const starting = shape.replicas === 0 || ended;
    await this.applyMachine({
      ...shape,
      gpuNum,
      fileStorage: starting ? this.fileStorageShape(mounts.fileStorage) : (shape.fileStorage ?? null),
      datasets: starting ? this.datasetsShape(mounts.datasets) : (shape.datasets ?? null),
      cpuCores: shares ? shares.cpuPerGpu * gpuNum : shape.cpuCores,
      memoryGb: shares ? shares.memoryGbPerGpu * gpuNum : shape.memoryGb,
      replicas: 1,
      ...(shape.command && (shape.replicas === 0 || ended) ? { run: Date.now() } : {}),
    });
  }

  /** A clone's source disks were copied at its first start: later starts no longer mount them. */
  async stop(instanceId: string): Promise<void> {
    const shape = await this.shapeOf(instanceId);
    if (!shape || shape.replicas === 0) return;
    await this.applyMachine({ ...shape, replicas: 0, cloneFrom: null });
  }

  private async systemClaims(instanceId: string): Promise<string[]> {
    const claims = await this.list<IPersistentVolumeClaim>('PersistentVolumeClaim', `${INSTANCE_LABEL}=${instanceId},${DISK_LABEL}=system`);
    return claims.map((claim) => claim.metadata?.name ?? '');
  }

  /**
   * A new system disk (a claim named for this request) that the next start seeds from `image`; the old
   * one is deleted. The data disk is kept, the machine left stopped. A machine already reinstalled for
   * this request or a later one is left alone.
   */
  async reinstall(instanceId: string, image: string, requestedAt: Date): Promise<void> {
    const shape = await this.shapeOf(instanceId);
    if (!shape) throw new DriverError('实例的机器不存在，无法重置系统', false);
    const requested = requestedAt.getTime();
    if (shape.reinstalledFor === null || shape.reinstalledFor < requested) {
      const ref = await imageReference(this.options.db, image, this.options);
      const systemClaim = systemClaimName(instanceId, requested);
      await this.apply(claimOf(instanceId, this.namespace, { kind: 'system', name: systemClaim }, this.options.storageClass) as KubernetesObject, '应用 PersistentVolumeClaim ');
      await this.applyMachine({ ...shape, image: ref, imageId: image, replicas: 0, systemClaim, reinstalledFor: requested, cloneFrom: null });
    }
    const current = (await this.shapeOf(instanceId))?.systemClaim;
    for (const claim of await this.systemClaims(instanceId)) if (claim !== current) await this.remove('v1', 'PersistentVolumeClaim', claim);
  }

  async destroy(instanceId: string): Promise<void> {
    const names = objectNames(instanceId);
    await this.remove('apps/v1', 'StatefulSet', names.statefulSet);
    await this.remove('v1', 'Service', names.service);
    await this.remove('v1', 'Secret', names.secret);
    await this.remove('v1', 'PersistentVolumeClaim', names.dataClaim);
    for (const claim of await this.systemClaims(instanceId)) await this.remove('v1', 'PersistentVolumeClaim', claim);
    // Copies into this machine go with it; a saved image's Job is the image's record and stays.
    for (const job of await this.list<IJob>('Job', `${INSTANCE_LABEL}=${instanceId},${COPY_LABEL}`)) await this.remove('batch/v1', 'Job', job.metadata?.name ?? '');
    this.lastUsage.delete(instanceId);
  }

  /** Runs a command in the machine's running container; its stdout, or a DriverError with what it printed. */
  private async run(instanceId: string, command: string[], input?: string): Promise<string> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const chunks: Buffer[] = [];
    const errors: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    stderr.on('data', (chunk: Buffer) => errors.push(chunk));
    const stdin = input === undefined ? null : Readable.from([Buffer.from(input)]);
    const outcome = await this.call(
      '执行命令',
      () =>
        new Promise<{ status?: string; message?: string }>((resolve, reject) => {
          let socket: { close(): void } | undefined;
          // A command that never ends (a machine that stopped answering) must not hold the caller forever.
          const timer = setTimeout(() => {
            socket?.close();
            reject(new DriverError(`实例内命令 ${EXEC_TIMEOUT_MS / 1000} 秒内没有结束`, true));
          }, EXEC_TIMEOUT_MS);
          const settle = (status: { status?: string; message?: string }) => {
            clearTimeout(timer);
            resolve(status);
          };
          this.exec
            .exec(this.namespace, objectNames(instanceId).pod, MACHINE_CONTAINER, command, stdout, stderr, stdin, false, settle)
            .then((opened) => {
              socket = opened;
              opened.on('close', () => settle({ status: 'Unknown' }));
            })
            .catch((error: unknown) => {
              clearTimeout(timer);
              reject(error instanceof Error ? error : new Error(String(error)));
            });
        }),
    );
    if (outcome.status !== 'Success') throw new DriverError(`实例内命令失败：${Buffer.concat(errors).toString().trim() || outcome.message || '未知原因'}`, true);
    return Buffer.concat(chunks).toString();
  }

  /**
   * The machine container's log. Once a command machine's command ended, the kubelet restarts the
   * container (which then idles, printing nothing): the command's output is the previous container's
   * log, or the current one's while the kubelet has not restarted it yet (the pod's status may lag).
   */
  async logs(instanceId: string, lines: number): Promise<string> {
    const names = objectNames(instanceId);
    const pod = await this.read<IPod & KubernetesObject>('v1', 'Pod', names.pod);
    if (!pod) {
      if (await this.shapeOf(instanceId)) return '';
      throw new DriverError('容器不存在', false);
    }
    if (lines <= 0) return '';
    const read = async (previous: boolean): Promise<string | null> => {
      try {
        return await this.core.readNamespacedPodLog({ name: names.pod, namespace: this.namespace, container: MACHINE_CONTAINER, tailLines: lines, ...(previous ? { previous } : {}) });
      } catch (error) {
        // The pod went, or it has no such container (yet): nothing to show.
        if (error instanceof ApiException && (error.code === 404 || error.code === 400)) return null;
        return this.call('读取日志', () => Promise.reject(error as Error));
      }
    };
    const status = machineStatusOf(pod);
    if (exitOfMessage(status?.lastState?.terminated?.message) !== null) return (await read(true)) ?? '';
    if (exitOfMessage(status?.state?.terminated?.message) === null) return (await read(false)) ?? '';
    // The command ended and the kubelet may restart the container (to idle) any moment, before the pod's
    // status says so: the current container may already be the idle one. A previous container that
    // appears is the ended one (unless it is an earlier restart's, which the restart count tells).
    const ended = await read(false);
    const previous = await read(true);
    if (previous === null) return ended ?? '';
    if ((status?.restartCount ?? 0) === 0) return previous;
    const restarted = machineStatusOf((await this.read<IPod & KubernetesObject>('v1', 'Pod', names.pod)) ?? undefined)?.restartCount !== status?.restartCount;
    return restarted ? previous : (ended ?? '');
  }

  async setPassword(instanceId: string, password: string): Promise<void> {
    const names = objectNames(instanceId);
    const secret = await this.read<ISecret & KubernetesObject>('v1', 'Secret', names.secret);
    const pod = await this.read<IPod & KubernetesObject>('v1', 'Pod', names.pod);
    if (!secret || pod?.status?.phase !== 'Running' || pod.metadata?.deletionTimestamp) throw new DriverError('实例未在运行，无法修改密码', false);
    await this.run(instanceId, ['chpasswd'], `root:${password}\n`);
    // Every start applies the Secret's password (a pod's file system starts afresh): it follows.
    const keys = Buffer.from(secret.data?.authorized_keys ?? '', 'base64').toString().split('\n').filter((line) => line.trim() !== '');
    await this.apply(secretOf(instanceId, this.namespace, password, keys) as KubernetesObject, '应用 Secret ');
  }

  private async applyService(instanceId: string, ssh: ServicePort, custom: readonly ServicePort[]): Promise<void> {
    try {
      await this.objects.patch(serviceOf(instanceId, this.namespace, this.options.serviceType, ssh, custom) as KubernetesObject, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
    } catch (error) {
      if (error instanceof ApiException && error.code === 422 && /already allocated/.test(String(error.body))) {
        const taken = custom.find((entry) => String(error.body).includes(`${entry.nodePort}`));
        throw new DriverError(`主机端口 ${taken?.nodePort ?? ''} 已被占用`, false);
      }
      await this.call('应用 Service ', () => Promise.reject(error as Error));
    }
  }

  private async servicePorts(instanceId: string): Promise<{ ssh: ServicePort; custom: ServicePort[] }> {
    const service = await this.read<IService & KubernetesObject>('v1', 'Service', objectNames(instanceId).service);
    if (!service) throw new DriverError('实例的机器不存在，无法设置端口', false);
    const ports = service.spec?.ports ?? [];
    const sshPort = ports.find((port) => port.name === 'ssh');
    return {
      ssh: { port: SSH_PORT, nodePort: sshPort?.nodePort ?? null },
      custom: ports.filter((port) => port.name !== 'ssh').map((port) => ({ port: port.port, nodePort: port.nodePort ?? null })),
    };
  }

  async exposePort(instanceId: string, service: { port: number; protocol: 'http' | 'tcp'; publicPort: number | null }): Promise<void> {
    const { ssh, custom } = await this.servicePorts(instanceId);
    const others = custom.filter((entry) => entry.port !== service.port);
    await this.applyService(instanceId, ssh, [...others, { port: service.port, nodePort: service.publicPort }]);
  }

  async unexposePort(instanceId: string, port: number): Promise<void> {
    const { ssh, custom } = await this.servicePorts(instanceId);
    if (!custom.some((entry) => entry.port === port)) return;
    await this.applyService(
      instanceId,
      ssh,
      custom.filter((entry) => entry.port !== port),
    );
  }

  /** One list call per kind for every machine of the platform. */
  private async snapshot(): Promise<Snapshot> {
    const [sets, pods, claims, services, nodes] = await Promise.all([
      // The shape annotation says all the driver needs of a StatefulSet, the name and labels all of a claim.
      this.list<IStatefulSet>('StatefulSet', INSTANCE_LABEL, true),
      this.list<IPod>('Pod', INSTANCE_LABEL),
      this.list<IPersistentVolumeClaim>('PersistentVolumeClaim', INSTANCE_LABEL, true),
      this.list<IService>('Service', INSTANCE_LABEL),
      this.list<INode>('Node', undefined),
    ]);
    return {
      sets: byInstance(sets),
      // A copy Job's pod carries its target's label too: the machine's pod is the StatefulSet's.
      pods: byInstance(pods.filter((pod) => pod.metadata?.name === objectNames(pod.metadata?.labels?.[INSTANCE_LABEL] ?? '').pod)),
      claims: groupedByInstance(claims),
      services: byInstance(services),
      nodes: new Map(nodes.map((node) => [node.metadata?.name ?? '', node])),
    };
  }

  async observe(instanceIds: readonly string[]): Promise<Map<string, ObservedMachine>> {
    const seen = new Map<string, ObservedMachine>();
    let snapshot: Snapshot;
    try {
      snapshot = await this.snapshot();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      for (const id of instanceIds) seen.set(id, { state: 'unreachable', reason: `Kubernetes API 无法访问：${reason}` });
      return seen;
    }
    for (const id of instanceIds) seen.set(id, this.machineOf(snapshot, id));
    return seen;
  }

  private machineOf(snapshot: Snapshot, instanceId: string): ObservedMachine {
    const set = snapshot.sets.get(instanceId);
    const claims = snapshot.claims.get(instanceId) ?? [];
    const pod = snapshot.pods.get(instanceId);
    if (!set && claims.length === 0) return { state: 'absent' };
    const shape = JSON.parse(set?.metadata?.annotations?.[SHAPE_ANNOTATION] ?? '{}') as Partial<MachineShape>;
    const claimNamed = (name: string | undefined) => claims.find((claim) => claim.metadata?.name === name && !claim.metadata?.deletionTimestamp);
    if (!set || set.metadata?.deletionTimestamp || !claimNamed(objectNames(instanceId).dataClaim) || !claimNamed(shape.systemClaim)) return { state: 'deleting' };
    const node = snapshot.nodes.get(shape.hostId ?? '');
    const ready = node?.status?.conditions?.find((condition) => condition.type === 'Ready');
    if (!node) return { state: 'error', reason: `实例所在的主机（节点 ${shape.hostId ?? ''}）已不在集群中` };
    // NotReady (False) or silent (Unknown): the machine cannot be reached until its node is back.
    if (ready?.status !== 'True') return { state: 'unreachable', reason: `实例所在的主机（节点 ${node.metadata?.name ?? ''}）失去联系` };
    const image = shape.imageId;
    if ((shape.replicas ?? 0) === 0) {
      if (pod) return { state: 'stopping', image };
      const oldSystemDisk = claims.some((claim) => claim.metadata?.labels?.[DISK_LABEL] === 'system' && claim.metadata.name !== shape.systemClaim);
      return { state: oldSystemDisk ? 'reinstalling' : 'stopped', image };
    }
    if (!pod || pod.metadata?.deletionTimestamp) return { state: 'starting', image };
    if (shape.command) {
      // The pod of the run before (start replaces it): what it says is over.
      if (runOfPod(pod) !== String(shape.run ?? 0)) return { state: 'starting', image };
      const exitCode = commandExitOf(pod);
      if (exitCode !== null) return { state: 'stopped', exitCode, image };
    }
    const failure = podFailure(pod);
    if (failure) return { state: 'error', reason: failure, image };
    const readyCondition = pod.status?.conditions?.find((condition) => condition.type === 'Ready' && condition.status === 'True');
    if (pod.status?.phase !== 'Running' || !readyCondition) return { state: (set.metadata?.generation ?? 1) <= 1 ? 'creating' : 'starting', image };
    const limits = pod.spec?.containers.find((container) => container.name === MACHINE_CONTAINER)?.resources?.limits ?? {};
    const sshNodePort = snapshot.services.get(instanceId)?.spec?.ports?.find((port) => port.name === 'ssh')?.nodePort;
    const address = node.status?.addresses?.find((entry) => entry.type === 'ExternalIP') ?? node.status?.addresses?.find((entry) => entry.type === 'InternalIP');
    return {
      state: 'running',
      runningSince: new Date(readyCondition.lastTransitionTime ?? pod.status.startTime ?? Date.now()),
      gpuNum: Number(limits[GPU_RESOURCE] ?? 0),
      image,
      fileStorage: fileStorageOfPod(pod),
      ...(this.mountsFileStorage ? { datasets: datasetsOfPod(pod) } : {}),
      ...(sshNodePort && address ? { ssh: { host: address.address, port: sshNodePort } } : {}),
    };
  }

  /** Hosts from the cluster's labelled nodes (nodes.ts), from one list of the nodes. */
  async syncHosts(): Promise<NodeSync> {
    return syncHostsFromNodes(this.options.db, await this.list<INode>('Node', undefined));
  }

  async resizeDataDisk(instanceId: string, sizeGb: number): Promise<void> {
    const claim = await this.read<IPersistentVolumeClaim & KubernetesObject>('v1', 'PersistentVolumeClaim', objectNames(instanceId).dataClaim);
    if (!claim) throw new DriverError('实例的数据盘不存在', false);
    const current = Number.parseInt(String(claim.spec?.resources?.requests?.storage ?? '0'), 10);
    if (current === sizeGb) return;
    if (sizeGb < current) throw new DriverError(`Kubernetes 上的数据盘只能扩容，不能缩小（当前 ${current}GB）`, false);
    try {
      await this.objects.patch(
        claimOf(instanceId, this.namespace, { kind: 'data', sizeGb }, claim.spec?.storageClassName ?? this.options.storageClass) as KubernetesObject,
        undefined,
        undefined,
        FIELD_MANAGER,
        true,
        PatchStrategy.ServerSideApply,
      );
    } catch (error) {
      if (error instanceof ApiException && error.code === 403) throw new DriverError('数据盘所在的存储类不支持扩容，请联系平台管理员', false);
      await this.call('扩容数据盘', () => Promise.reject(error as Error));
    }
  }

  /** Measured with `df` in running machines; the last measurement for stopped ones. */
  async dataDiskUsage(instanceIds: readonly string[]): Promise<Map<string, number>> {
    const snapshot = await this.snapshot();
    await Promise.all(
      instanceIds.map(async (id) => {
        if (this.machineOf(snapshot, id).state !== 'running') return;
        const output = await this.run(id, ['df', '-B1', '--output=used', DATA_DISK_MOUNT_PATH]).catch(() => null);
        const used = Number(output?.trim().split('\n').at(-1));
        if (Number.isFinite(used)) this.lastUsage.set(id, Math.round((used / GIB) * 100) / 100);
      }),
    );
    return new Map(instanceIds.flatMap((id) => (this.lastUsage.has(id) ? [[id, this.lastUsage.get(id) ?? 0] as const] : [])));
  }

  // ---- saved images and data copies: Jobs on the machines' nodes ----------------------------------

  /** The Jobs carrying `label` and their pods, one list each, keyed by the label's value (an image uid, a copy task). */
  private async jobsByLabel(label: string): Promise<{ jobOf: Map<string, IJob>; podOf: Map<string, IPod> }> {
    const [jobs, pods] = await Promise.all([this.list<IJob>('Job', label), this.list<IPod>('Pod', label)]);
    return {
      jobOf: new Map(jobs.map((job) => [job.metadata?.labels?.[label] ?? '', job])),
      podOf: new Map(pods.map((pod) => [pod.metadata?.labels?.[label] ?? '', pod])),
    };
  }

  private registryOrRefusal(): ImageRegistry {
    if (!this.registry) throw new DriverError('Kubernetes 上保存镜像需要镜像仓库：请平台管理员设置 REGISTRY_URL', false);
    return this.registry;
  }

  async saveImage(instanceId: string, imageUid: string): Promise<void> {
    const registry = this.registryOrRefusal();
    if (await this.read('batch/v1', 'Job', saveImageJobName(imageUid))) return;
    const shape = await this.shapeOf(instanceId);
    if (!shape) throw new DriverError('实例的机器不存在，无法保存镜像', false);
    const pod = await this.read('v1', 'Pod', objectNames(instanceId).pod);
    if (shape.replicas !== 0 || pod) throw new DriverError('实例未关机，无法保存镜像', false);
    const job = saveImageJobOf({
      namespace: this.namespace,
      hostId: shape.hostId,
      imageUid,
      machineImage: shape.image,
      systemClaim: shape.systemClaim,
      destination: registry.reference(imageUid),
      builderImage: this.options.builderImage,
      insecureRegistry: registry.plainHttp,
    });
    await this.apply(job as KubernetesObject, '创建保存镜像任务 ');
  }

  /** From the save-image Jobs and their pods, one list each: the prepare step reported the system disk's size. */
  async observeImages(imageUids: readonly string[]): Promise<Map<string, ObservedImage>> {
    const { jobOf, podOf } = await this.jobsByLabel(IMAGE_LABEL);
    return new Map(
      imageUids.map((uid): [string, ObservedImage] => {
        const job = jobOf.get(uid);
        if (!job || job.metadata?.deletionTimestamp) return [uid, { state: 'absent' }];
        const pod = podOf.get(uid);
        if (jobCondition(job, 'Complete')) return [uid, { state: 'ready', sizeGb: Math.max(kilobytesToGb(Number(terminatedOf(pod, 'prepare', true)?.message ?? 0)), 0.01) }];
        if (jobCondition(job, 'Failed')) {
          const failure = terminatedOf(pod, 'build')?.message ?? terminatedOf(pod, 'prepare', true)?.message ?? (pod && podFailure(pod)) ?? '构建镜像的任务失败';
          return [uid, { state: 'failed', reason: `保存镜像失败：${failure}` }];
        }
        return [uid, { state: 'saving' }];
      }),
    );
  }

  async deleteImage(imageUid: string): Promise<void> {
    await this.call('删除镜像', () => this.registryOrRefusal().remove(imageUid));
    await this.remove('batch/v1', 'Job', saveImageJobName(imageUid));
  }

  async copyData(taskUid: string, fromInstanceId: string, toInstanceId: string, path: string): Promise<void> {
    if (await this.read('batch/v1', 'Job', copyJobName(taskUid))) return;
    const from = await this.shapeOf(fromInstanceId);
    if (!from) throw new DriverError('源实例的数据盘已不存在', false);
    const to = await this.shapeOf(toInstanceId);
    if (!to) throw new DriverError('目标实例的数据盘已不存在', false);
    if (from.hostId !== to.hostId) throw new DriverError('Kubernetes 上只能在同一主机的实例之间拷贝数据（数据盘在节点的本地存储上）', false);
    const relative = path === DATA_DISK_MOUNT_PATH ? '' : path.slice(DATA_DISK_MOUNT_PATH.length);
    const job = copyJobOf({ taskUid, namespace: this.namespace, hostId: to.hostId, fromInstanceId, toInstanceId, relative, helperImage: this.options.baseImage });
    await this.apply(job as KubernetesObject, '创建拷贝任务 ');
  }

  /** From the copy Jobs and their pods, one list each; the size is known once the copy ends (its termination message). */
  async observeCopies(taskUids: readonly string[]): Promise<Map<string, ObservedCopy>> {
    const { jobOf, podOf } = await this.jobsByLabel(COPY_LABEL);
    return new Map(
      taskUids.map((uid): [string, ObservedCopy] => {
        const job = jobOf.get(uid);
        if (!job) return [uid, { state: 'absent', totalGb: 0, copiedGb: 0 }];
        const ended = terminatedOf(podOf.get(uid), 'copy');
        const totalGb = kilobytesToGb(Number(/\d+/.exec(ended?.message ?? '')?.[0] ?? 0));
        if (jobCondition(job, 'Complete')) return [uid, { state: 'done', totalGb, copiedGb: totalGb }];
        if (jobCondition(job, 'Failed')) {
          if (ended?.exitCode === COPY_SOURCE_MISSING) return [uid, { state: 'failed', totalGb: 0, copiedGb: 0, reason: '源实例的数据盘上没有该路径' }];
          return [uid, { state: 'failed', totalGb, copiedGb: 0, reason: `拷贝失败（退出码 ${ended?.exitCode ?? '未知'}），可能是目标数据盘空间不足` }];
        }
        if (job.spec?.suspend) return [uid, { state: 'cancelled', totalGb, copiedGb: 0 }];
        return [uid, { state: 'running', totalGb, copiedGb: 0 }];
      }),
    );
  }

  /** Suspends the copy's Job (its pod goes, what landed stays); a Job that ended or is gone is left alone. */
  async cancelCopy(taskUid: string): Promise<void> {
    const job = await this.read<IJob & KubernetesObject>('batch/v1', 'Job', copyJobName(taskUid));
    if (!job || job.spec?.suspend || jobCondition(job, 'Complete') || jobCondition(job, 'Failed')) return;
    await this.apply({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: copyJobName(taskUid), namespace: this.namespace }, spec: { suspend: true } } as KubernetesObject, '取消拷贝任务 ', CANCEL_FIELD_MANAGER);
  }
}
