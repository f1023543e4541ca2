import { PassThrough, Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { ApiException, Exec, KubernetesObjectApi, PatchStrategy, type KubeConfig, type KubernetesObject } from '@kubernetes/client-node';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import type { IPersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { IPod } from 'kubernetes-models/v1/Pod';
import type { INode } from 'kubernetes-models/v1/Node';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';
import { DATA_DISK_MOUNT_PATH } from '@slg/shared';
import type { Database } from '../../db/client.js';
import { hosts } from '../../db/schema/index.js';
import { DriverError, type MachineLifecycle, type MachineSpec, type ObservedMachine } from '../driver.js';
import { INSTANCE_LABEL } from '../docker/engines.js';
import { imageReference } from '../images.js';
import { syncHostsFromNodes, type NodeSync } from './nodes.js';
import {
  dataClaimOf,
  FIELD_MANAGER,
  GPU_RESOURCE,
  HOSTNAME_LABEL,
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
  baseImage: string;
  registryUrl?: string;
}

/** What the driver reads of the cluster in one pass. */
interface Snapshot {
  sets: Map<string, IStatefulSet>;
  pods: Map<string, IPod>;
  claims: Map<string, IPersistentVolumeClaim>;
  services: Map<string, IService>;
  nodes: Map<string, INode>;
}

function byInstance<T extends { metadata?: { labels?: Record<string, string> } }>(items: readonly T[]): Map<string, T> {
  return new Map(items.flatMap((item) => (item.metadata?.labels?.[INSTANCE_LABEL] ? [[item.metadata.labels[INSTANCE_LABEL], item] as const] : [])));
}

/** Why a pod does not run, in words the user can act on; null while nothing is wrong. */
export function podFailure(pod: IPod): string | null {
  const scheduled = pod.status?.conditions?.find((condition) => condition.type === 'PodScheduled');
  if (scheduled?.status === 'False' && scheduled.reason === 'Unschedulable') {
    return /nvidia\.com\/gpu/.test(scheduled.message ?? '') ? '主机上空闲的 GPU 不足，无法启动实例' : `实例无法调度到所在主机：${scheduled.message ?? ''}`;
  }
  if (pod.status?.phase === 'Failed') return `实例的容器已退出：${pod.status.message ?? pod.status.reason ?? '未知原因'}`;
  for (const container of pod.status?.containerStatuses ?? []) {
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
export class KubernetesDriver implements MachineLifecycle {
  readonly name = 'kubernetes' as const;
  readonly serviceRouting = 'host-port' as const;
  private readonly objects: KubernetesObjectApi;
  private readonly exec: Exec;
  /** The last measured data-disk usage (GB) of each machine, kept for while it is stopped. */
  private readonly lastUsage = new Map<string, number>();

  constructor(private readonly options: KubernetesDriverOptions) {
    this.objects = KubernetesObjectApi.makeApiClient(options.kubeConfig);
    this.exec = new Exec(options.kubeConfig);
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

  private apply<T extends KubernetesObject>(object: T, what: string): Promise<T> {
    return this.call(what, () => this.objects.patch(object, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply));
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

  private async shapeOf(instanceId: string): Promise<MachineShape | null> {
    const set = await this.read<IStatefulSet & KubernetesObject>('apps/v1', 'StatefulSet', objectNames(instanceId).statefulSet);
    const shape = set?.metadata?.annotations?.[SHAPE_ANNOTATION];
    return shape ? (JSON.parse(shape) as MachineShape) : null;
  }

  async create(spec: MachineSpec): Promise<void> {
    const image = await imageReference(this.options.db, spec.imageId, this.options);
    const namespace = this.namespace;
    await this.apply(secretOf(spec.instanceId, namespace, spec.rootPassword, spec.authorizedKeys) as KubernetesObject, '应用 Secret ');
    // An existing claim keeps its size: a repeated create must not undo a resize made since.
    const claim = await this.read<IPersistentVolumeClaim & KubernetesObject>('v1', 'PersistentVolumeClaim', objectNames(spec.instanceId).dataClaim);
    if (!claim) await this.apply(dataClaimOf(spec.instanceId, namespace, spec.dataDiskGb, this.options.storageClass) as KubernetesObject, '应用 PersistentVolumeClaim ');
    const service = await this.read<IService & KubernetesObject>('v1', 'Service', objectNames(spec.instanceId).service);
    if (!service) await this.applyService(spec.instanceId, { port: SSH_PORT, nodePort: null }, []);
    const existing = await this.shapeOf(spec.instanceId);
    if (existing) return;
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
    });
  }

  async start(instanceId: string, gpuNum: number): Promise<void> {
    const shape = await this.shapeOf(instanceId);
    if (!shape) throw new DriverError('实例的机器不存在，无法开机', false);
    const shares = gpuNum > 0 ? await this.hostShares(shape.hostId) : null;
    await this.applyMachine({
      ...shape,
      gpuNum,
      cpuCores: shares ? shares.cpuPerGpu * gpuNum : shape.cpuCores,
      memoryGb: shares ? shares.memoryGbPerGpu * gpuNum : shape.memoryGb,
      replicas: 1,
    });
  }

  async stop(instanceId: string): Promise<void> {
    const shape = await this.shapeOf(instanceId);
    if (!shape || shape.replicas === 0) return;
    await this.applyMachine({ ...shape, replicas: 0 });
  }

  /**
   * A pod's file system starts from its image at every start (docs/compute.md, the open point of the
   * system disk), so a reinstall is the pod template's image: the machine is left stopped with it, the
   * data disk kept. Applying the same image again changes nothing.
   */
  async reinstall(instanceId: string, image: string): Promise<void> {
    const shape = await this.shapeOf(instanceId);
    if (!shape) throw new DriverError('实例的机器不存在，无法重置系统', false);
    const ref = await imageReference(this.options.db, image, this.options);
    await this.applyMachine({ ...shape, image: ref, imageId: image, replicas: 0 });
  }

  async destroy(instanceId: string): Promise<void> {
    const names = objectNames(instanceId);
    await this.remove('apps/v1', 'StatefulSet', names.statefulSet);
    await this.remove('v1', 'Service', names.service);
    await this.remove('v1', 'Secret', names.secret);
    await this.remove('v1', 'PersistentVolumeClaim', names.dataClaim);
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
    const list = <T extends KubernetesObject>(apiVersion: string, kind: string) =>
      this.call(`列出 ${kind} `, () => this.objects.list<T>(apiVersion, kind, kind === 'Node' ? undefined : this.namespace, undefined, undefined, undefined, undefined, kind === 'Node' ? undefined : INSTANCE_LABEL));
    const [sets, pods, claims, services, nodes] = await Promise.all([
      list<IStatefulSet & KubernetesObject>('apps/v1', 'StatefulSet'),
      list<IPod & KubernetesObject>('v1', 'Pod'),
      list<IPersistentVolumeClaim & KubernetesObject>('v1', 'PersistentVolumeClaim'),
      list<IService & KubernetesObject>('v1', 'Service'),
      list<INode & KubernetesObject>('v1', 'Node'),
    ]);
    return {
      sets: byInstance(sets.items),
      pods: byInstance(pods.items),
      claims: byInstance(claims.items),
      services: byInstance(services.items),
      nodes: new Map(nodes.items.map((node) => [node.metadata?.name ?? '', node])),
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
    const claim = snapshot.claims.get(instanceId);
    const pod = snapshot.pods.get(instanceId);
    if (!set && !claim) return { state: 'absent' };
    if (!set || !claim || set.metadata?.deletionTimestamp || claim.metadata?.deletionTimestamp) return { state: 'deleting' };
    const shape = JSON.parse(set.metadata?.annotations?.[SHAPE_ANNOTATION] ?? '{}') as Partial<MachineShape>;
    const node = snapshot.nodes.get(set.spec?.template.spec?.nodeSelector?.[HOSTNAME_LABEL] ?? '');
    const ready = node?.status?.conditions?.find((condition) => condition.type === 'Ready');
    if (!node) return { state: 'error', reason: `实例所在的主机（节点 ${shape.hostId ?? ''}）已不在集群中` };
    if (ready?.status === 'Unknown') return { state: 'unreachable', reason: `实例所在的主机（节点 ${node.metadata?.name ?? ''}）失去联系` };
    const image = shape.imageId;
    if ((set.spec?.replicas ?? 0) === 0) return pod ? { state: 'stopping', image } : { state: 'stopped', image };
    if (!pod || pod.metadata?.deletionTimestamp) return { state: 'starting', image };
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
      ...(sshNodePort && address ? { ssh: { host: address.address, port: sshNodePort } } : {}),
    };
  }

  /** Hosts from the cluster's labelled nodes (nodes.ts), from one list of the nodes. */
  async syncHosts(): Promise<NodeSync> {
    const nodes = await this.call('列出节点', () => this.objects.list<INode & KubernetesObject>('v1', 'Node'));
    return syncHostsFromNodes(this.options.db, nodes.items);
  }

  async resizeDataDisk(instanceId: string, sizeGb: number): Promise<void> {
    const claim = await this.read<IPersistentVolumeClaim & KubernetesObject>('v1', 'PersistentVolumeClaim', objectNames(instanceId).dataClaim);
    if (!claim) throw new DriverError('实例的数据盘不存在', false);
    const current = Number.parseInt(String(claim.spec?.resources?.requests?.storage ?? '0'), 10);
    if (current === sizeGb) return;
    if (sizeGb < current) throw new DriverError(`Kubernetes 上的数据盘只能扩容，不能缩小（当前 ${current}GB）`, false);
    try {
      await this.objects.patch(dataClaimOf(instanceId, this.namespace, sizeGb, claim.spec?.storageClassName ?? this.options.storageClass) as KubernetesObject, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
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
}
