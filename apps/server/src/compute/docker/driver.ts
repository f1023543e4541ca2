import { randomInt } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type Docker from 'dockerode';
import { and, eq, inArray, ne, notExists, sql } from 'drizzle-orm';
import { DATA_DISK_MOUNT_PATH, datasetMountPath, FILE_STORAGE_MOUNT, NO_GPU_CPU_CORES, NO_GPU_MEMORY_GB } from '@slg/shared';
import { imageReference, PRIVATE_IMAGE_REPOSITORY } from '../images.js';
import { rowsOf, type Database } from '../../db/client.js';
import { dockerGpuClaims, dockerMachines, instances } from '../../db/schema/index.js';
import { DriverError, type ComputeDriver, type DatasetMount, type MachineMounts, type MachineSpec, type MachineState, type ObservedCopy, type ObservedImage, type ObservedMachine, DEFAULT_PUBLIC_PORT_RANGE } from '../driver.js';
import { driverErrorOf, INSTANCE_LABEL, isUnanswered, statusOf, UNREACHABLE_REASON, type DockerEngines, type Engine } from './engines.js';
import { addressOf, isServiceForwarder, ServiceForwarders } from './services.js';
import {
  copyDataScript,
  COPY_SOURCE_MISSING,
  demultiplexed,
  envProfile,
  filesOfArchive,
  firstBootArchive,
  MACHINE_COMMAND_INIT,
  MACHINE_INIT,
  rootHashOf,
  userEnv,
  type FirstBootFiles,
} from './machine-files.js';

/** The GPU indexes (comma-separated) a container was created with. */
const GPUS_LABEL = 'slg.io/gpus';
/** The 文件存储 (its key) a container binds at /root/slg-fs; '' for none. */
const FILE_STORAGE_LABEL = 'slg.io/file-storage';
/** The datasets (JSON `[{name, source}]`) a container binds read-only under /root/slg-pub; absent on containers made before datasets. */
const DATASETS_LABEL = 'slg.io/datasets';
/** A data-copy helper container's task uid. */
const COPY_LABEL = 'slg.io/copy-task';
/** Private images (saved system disks) are kept under this repository, tagged with their uid. */
/** A machine's own system disk, committed before it is re-created with other GPUs (or none). */
const SYSTEM_DISK_REPOSITORY = 'slg-system';
/** How long `docker stop` waits for sshd before killing it. */
const STOP_GRACE_SECONDS = 5;
/** A container that exits with an error this soon after starting failed to start (bad image, no sshd). */
const FAILED_START_SECONDS = 10;
/** Exit status of a helper container killed by `cancelCopy`. */
const KILLED = 137;

export interface DockerDriverOptions {
  db: Database;
  engines: DockerEngines;
  /** The image public images run when `public_images.image_ref` is empty (what `npm run images` builds). */
  baseImage: string;
  /** Host ports SSH is published on, one per machine, drawn from this range. */
  sshPorts: { min: number; max: number };
  /** Where saved images are pushed (`registry.example.com:5000`); without it they stay on the host they were saved on. */
  registryUrl?: string;
  /**
   * STORAGE_ROOT: the directory holding a directory per 文件存储 (`<ownerId>/<zoneId>`), bound into
   * machines at /root/slg-fs. A path on the Docker hosts (a shared filesystem mounted at this same path
   * on every host of a region, and on the server) — the bind is made by each host's engine. Datasets
   * are folders under it too (`.public/<name>`, `.datasets/<snapshot>`), bound read-only.
   */
  storageRoot: string;
}

type MachineRow = typeof dockerMachines.$inferSelect;

interface EngineInfo {
  NCPU?: number;
  MemTotal?: number;
  Runtimes?: Record<string, unknown>;
}

interface Found {
  id: string;
  state: string;
  labels: Record<string, string>;
}

function volumeName(instanceId: string): string {
  return `${instanceId}-data`;
}

function systemDiskRef(instanceId: string): string {
  return `${SYSTEM_DISK_REPOSITORY}:${instanceId}`;
}

function gpusOf(labels: Record<string, string>): number[] {
  const value = labels[GPUS_LABEL] ?? '';
  return value === '' ? [] : value.split(',').map(Number);
}

/** The store a container was made with (its label), null for none. */
function fileStorageOf(labels: Record<string, string>): string | null {
  return labels[FILE_STORAGE_LABEL] || null;
}

/** The datasets a container was made with (its label); none for a container made before datasets. */
function datasetsOf(labels: Record<string, string>): DatasetMount[] {
  const value = labels[DATASETS_LABEL];
  if (!value) return [];
  const parsed: unknown = JSON.parse(value);
  return Array.isArray(parsed) ? parsed.filter(isDatasetMount) : [];
}

function isDatasetMount(value: unknown): value is DatasetMount {
  return typeof value === 'object' && value !== null && typeof (value as DatasetMount).name === 'string' && typeof (value as DatasetMount).source === 'string';
}

/** Whether two sets of datasets mount the same folders at the same names, in any order. */
function sameDatasets(left: readonly DatasetMount[], right: readonly DatasetMount[]): boolean {
  const key = (datasets: readonly DatasetMount[]) => JSON.stringify(datasets.map((dataset) => JSON.stringify([dataset.name, dataset.source])).sort());
  return key(left) === key(right);
}

function sameSet(left: readonly number[], right: readonly number[]): boolean {
  return left.length === right.length && [...left].sort().join(',') === [...right].sort().join(',');
}

/**
 * Instances as containers on Docker hosts (docs/compute.md, "The Docker driver"): one container and
 * one named volume per instance, both labelled with the instance id; GPUs pinned by index through
 * device requests, the indexes claimed in `docker_gpu_claims`; SSH on a host port kept for the
 * machine's life. Every call looks up what exists first, so repeating it after a crash is safe.
 */
export class DockerDriver implements ComputeDriver {
  readonly name = 'docker' as const;
  readonly serviceRouting = 'host-port' as const;
  readonly publicPortRange = DEFAULT_PUBLIC_PORT_RANGE;
  readonly mountsFileStorage = true;

  /** Cross-host copies stream through this process; what it knows of them (lost with it, then reported absent). */
  private readonly streamedCopies = new Map<string, ObservedCopy & { abort: () => void }>();
  private readonly infos = new Map<string, EngineInfo>();
  private readonly services: ServiceForwarders;

  constructor(private readonly options: DockerDriverOptions) {
    this.services = new ServiceForwarders(options.baseImage);
  }

  private get db(): Database {
    return this.options.db;
  }

  private async machine(instanceId: string): Promise<MachineRow | undefined> {
    const [row] = await this.db.select().from(dockerMachines).where(eq(dockerMachines.instanceId, instanceId));
    return row;
  }

  private async existing(instanceId: string): Promise<{ row: MachineRow; engine: Engine }> {
    const row = await this.machine(instanceId);
    if (!row) throw new DriverError('容器不存在', false);
    return { row, engine: await this.options.engines.engine(row.hostId) };
  }

  /** The machine container of an instance (not a copy helper or a service forwarder), found by its label (created, running, exited…), or undefined. */
  private async findInfo(docker: Docker, instanceId: string): Promise<Docker.ContainerInfo | undefined> {
    const list = await docker.listContainers({ all: true, filters: { label: [`${INSTANCE_LABEL}=${instanceId}`] } });
    return list.find((item) => isMachineContainer(item.Labels));
  }

  private async find(docker: Docker, instanceId: string): Promise<Found | undefined> {
    const container = await this.findInfo(docker, instanceId);
    return container ? { id: container.Id, state: container.State, labels: container.Labels } : undefined;
  }

  /** What the engine has (CPUs, memory, runtimes), read once per host and process. */
  private async engineInfo(engine: Engine): Promise<EngineInfo> {
    const known = this.infos.get(engine.hostId);
    if (known) return known;
    const info = (await engine.docker.info()) as EngineInfo;
    this.infos.set(engine.hostId, info);
    return info;
  }

  /** What a Docker host runs for an image the platform names (a public image id or a private image's uid). */
  private imageRefOf(imageId: string): Promise<string> {
    return imageReference(this.db, imageId, this.options);
  }

  /** Makes sure the engine has the image, pulling it from its registry when it does not. */
  private async ensureImage(engine: Engine, ref: string): Promise<void> {
    try {
      await engine.docker.getImage(ref).inspect();
      return;
    } catch (error) {
      if (statusOf(error) !== 404) throw driverErrorOf(error, '读取镜像失败');
    }
    const local = ref.startsWith(`${PRIVATE_IMAGE_REPOSITORY}:`) || ref.startsWith(`${SYSTEM_DISK_REPOSITORY}:`);
    if (local) throw new DriverError(`镜像只保存在创建它的主机上，主机 ${engine.hostId} 上没有它（配置 REGISTRY_URL 后镜像可在所有主机使用）`, false);
    try {
      const stream = await engine.docker.pull(ref);
      await new Promise<void>((resolve, reject) => engine.docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())));
    } catch (error) {
      if (isUnanswered(error)) throw new DriverError(UNREACHABLE_REASON, true);
      throw new DriverError(`主机 ${engine.hostId} 无法获取镜像 ${ref}（请运行 npm run images 或配置镜像仓库）`, false);
    }
  }

  /**
   * Pins `count` GPU indexes of the host to the instance. A GPU stays claimed while its instance holds
   * GPUs in the platform's books (`instances.gpu_held`), so a package's GPUs stay reserved while it is
   * off; the claims of instances that gave theirs back are dropped first. The primary key (host, index)
   * decides every race. Prefers the indexes the container already has, so a restart keeps them.
   */
  private async claimGpus(engine: Engine, instanceId: string, count: number, preferred: readonly number[]): Promise<number[]> {
    const hostId = engine.hostId;
    await this.db
      .delete(dockerGpuClaims)
      .where(
        and(
          eq(dockerGpuClaims.hostId, hostId),
          ne(dockerGpuClaims.instanceId, instanceId),
          notExists(
            this.db
              .select({ one: sql`1` })
              .from(instances)
              .where(and(eq(instances.instanceId, dockerGpuClaims.instanceId), sql`${instances.gpuHeld} > 0`, sql`${instances.releasedAt} is null`)),
          ),
        ),
      );
    const mine = (await this.db.select({ index: dockerGpuClaims.gpuIndex }).from(dockerGpuClaims).where(eq(dockerGpuClaims.instanceId, instanceId))).map((row) => row.index);
    if (mine.length > count) {
      const extra = [...mine].sort((a, b) => (preferred.includes(a) ? 0 : 1) - (preferred.includes(b) ? 0 : 1)).slice(count);
      await this.db.delete(dockerGpuClaims).where(and(eq(dockerGpuClaims.instanceId, instanceId), inArray(dockerGpuClaims.gpuIndex, extra)));
      return mine.filter((index) => !extra.includes(index)).sort((a, b) => a - b);
    }
    const claimed = [...mine];
    for (let attempt = 0; attempt < 5 && claimed.length < count; attempt += 1) {
      const rows = rowsOf<{ gpu_index: number }>(await this.db.execute(sql`
        insert into docker_gpu_claims (host_id, gpu_index, instance_id)
        select ${hostId}, candidate, ${instanceId} from generate_series(0, ${engine.gpuTotal - 1}) as candidate
        where not exists (select 1 from docker_gpu_claims c where c.host_id = ${hostId} and c.gpu_index = candidate)
        order by (candidate = any(${`{${preferred.join(',')}}`}::int[])) desc, candidate
        limit ${count - claimed.length}
        on conflict do nothing
        returning gpu_index`));
      claimed.push(...rows.map((row) => Number(row.gpu_index)));
    }
    if (claimed.length < count) throw new DriverError(`主机 ${hostId} 的空闲 GPU 不足（需要 ${count} 卡）`, true);
    return claimed.sort((a, b) => a - b);
  }

  private async releaseGpus(instanceId: string): Promise<void> {
    await this.db.delete(dockerGpuClaims).where(eq(dockerGpuClaims.instanceId, instanceId));
  }

  /** CPU and memory limits for this many GPUs (no-GPU mode's fixed share for 0), never above what the engine has. */
  private async limits(engine: Engine, gpuNum: number): Promise<{ NanoCpus: number; Memory: number }> {
    const info = await this.engineInfo(engine);
    const cores = Math.min(gpuNum === 0 ? NO_GPU_CPU_CORES : engine.cpuPerGpu * gpuNum, info.NCPU ?? Number.MAX_SAFE_INTEGER);
    const memory = Math.min((gpuNum === 0 ? NO_GPU_MEMORY_GB : engine.memoryGbPerGpu * gpuNum) * 1024 ** 3, info.MemTotal ?? Number.MAX_SAFE_INTEGER);
    return { NanoCpus: Math.round(cores * 1e9), Memory: Math.floor(memory) };
  }

  /** Creates (not starts) the instance's container from the machine's system image with these GPUs. */
  private async createContainer(engine: Engine, row: MachineRow, gpus: readonly number[], name = row.instanceId): Promise<Docker.Container> {
    // GPUs are attached only where the engine has NVIDIA's runtime; elsewhere they are advertised (DOCKER_GPUS) but none exist.
    const attach = gpus.length > 0 && Object.keys((await this.engineInfo(engine)).Runtimes ?? {}).includes('nvidia');
    const env = userEnv(row.env);
    const profile = envProfile(env);
    const store = row.fileStorage;
    // The storage API makes the store's directory at initialisation; made here too, for the engine refuses a bind of a missing path.
    if (store) {
      const directory = join(this.options.storageRoot, store);
      await mkdir(directory, { recursive: true, mode: 0o755 }).catch((error: unknown) => {
        throw new DriverError(`文件存储目录 ${directory} 无法创建（${error instanceof Error ? error.message : String(error)}），请检查 STORAGE_ROOT 的挂载`, false);
      });
    }
    await this.assertDatasetFolders(row.datasets);
    return engine.docker.createContainer({
      name,
      Image: row.systemImage,
      Hostname: row.instanceId,
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: [row.command === null ? MACHINE_INIT : MACHINE_COMMAND_INIT],
      Labels: { [INSTANCE_LABEL]: row.instanceId, [GPUS_LABEL]: gpus.join(','), [FILE_STORAGE_LABEL]: store ?? '', [DATASETS_LABEL]: JSON.stringify(row.datasets) },
      Env: [
        ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
        ...(profile === '' ? [] : [`SLG_PROFILE=${profile}`]),
        ...(row.command === null ? [] : [`SLG_COMMAND=${row.command}`]),
        // CUDA images ask for every GPU through this variable: a container without GPUs must see none.
        ...(gpus.length === 0 ? ['NVIDIA_VISIBLE_DEVICES=void'] : []),
      ],
      ExposedPorts: { '22/tcp': {} },
      HostConfig: {
        Mounts: [
          { Type: 'volume', Source: volumeName(row.instanceId), Target: DATA_DISK_MOUNT_PATH },
          ...(store ? [{ Type: 'bind' as const, Source: join(this.options.storageRoot, store), Target: FILE_STORAGE_MOUNT }] : []),
          ...row.datasets.map((dataset) => ({ Type: 'bind' as const, Source: join(this.options.storageRoot, dataset.source), Target: datasetMountPath(dataset.name), ReadOnly: true })),
        ],
        PortBindings: { '22/tcp': [{ HostPort: String(row.sshPort) }] },
        // A command machine ends with its command: never restarted, not even by a restarting engine.
        RestartPolicy: { Name: row.command === null ? 'unless-stopped' : 'no' },
        ...(await this.limits(engine, gpus.length)),
        ...(attach ? { DeviceRequests: [{ Driver: 'nvidia', DeviceIDs: gpus.map(String), Capabilities: [['gpu']] }] } : {}),
      },
    });
  }

  /** Unlike a store's, a dataset's folder is never made here: a missing one is the operator's to restore, not an empty folder to mount. */
  private async assertDatasetFolders(datasets: readonly DatasetMount[]): Promise<void> {
    for (const dataset of datasets) {
      const directory = join(this.options.storageRoot, dataset.source);
      const found = await stat(directory).catch(() => null);
      if (!found?.isDirectory()) throw new DriverError(`数据集 ${dataset.name} 的目录 ${directory} 不存在，请检查 STORAGE_ROOT 的挂载`, false);
    }
  }

  private async putFirstBootFiles(container: Docker.Container, files: FirstBootFiles): Promise<void> {
    await container.putArchive(await firstBootArchive(files), { path: '/' });
  }

  private async ensureVolume(engine: Engine, instanceId: string): Promise<void> {
    const { Volumes } = await engine.docker.listVolumes({ filters: { label: [`${INSTANCE_LABEL}=${instanceId}`] } });
    if ((Volumes ?? []).length > 0) return;
    await engine.docker.createVolume({ Name: volumeName(instanceId), Labels: { [INSTANCE_LABEL]: instanceId } });
  }

  /** Records the machine (claiming a free SSH port of the host by the unique index), or returns the one recorded. */
  private async record(spec: MachineSpec, systemImage: string): Promise<MachineRow> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const existing = await this.machine(spec.instanceId);
      if (existing) return existing;
      const [row] = await this.db
        .insert(dockerMachines)
        .values({
          instanceId: spec.instanceId,
          hostId: spec.hostId,
          sshPort: randomInt(this.options.sshPorts.min, this.options.sshPorts.max + 1),
          systemImage,
          imageId: spec.imageId,
          dataDiskGb: spec.dataDiskGb,
          desired: 'running',
          command: spec.command ?? null,
          env: spec.env && Object.keys(spec.env).length > 0 ? { ...spec.env } : null,
          fileStorage: spec.fileStorage ?? null,
          datasets: [...(spec.datasets ?? [])],
        })
        .onConflictDoNothing()
        .returning();
      if (row) return row;
    }
    throw new DriverError(`主机 ${spec.hostId} 没有空闲的 SSH 端口`, true);
  }

  async create(spec: MachineSpec): Promise<void> {
    const engine = await this.options.engines.engine(spec.hostId);
    try {
      let row = await this.machine(spec.instanceId);
      if (!row) {
        let systemImage = await this.imageRefOf(spec.imageId);
        if (spec.cloneFrom) systemImage = await this.commitForClone(engine, spec);
        else await this.ensureImage(engine, systemImage);
        row = await this.record(spec, systemImage);
      }
      await this.ensureVolume(engine, spec.instanceId);
      let found = await this.find(engine.docker, spec.instanceId);
      if (!found) {
        const gpus = await this.claimGpus(engine, spec.instanceId, spec.gpuNum, []);
        const container = await this.createContainer(engine, row, gpus);
        await this.putFirstBootFiles(container, { rootPassword: spec.rootPassword, authorizedKeys: spec.authorizedKeys });
        if (spec.cloneFrom?.copyData) await this.copyVolumeNow(engine, spec.cloneFrom.instanceId, spec.instanceId);
        found = { id: container.id, state: 'created', labels: {} };
      }
      // A command that ended is not run again by a repeated create.
      if (found.state === 'created' || (found.state === 'exited' && row.command === null)) await engine.docker.getContainer(found.id).start();
    } catch (error) {
      throw driverErrorOf(error, '创建容器失败');
    }
  }

  /** A clone's system disk: the stopped source's container committed to an image on the source's host (same host only). */
  private async commitForClone(engine: Engine, spec: MachineSpec): Promise<string> {
    const source = spec.cloneFrom ? await this.machine(spec.cloneFrom.instanceId) : undefined;
    if (!source) throw new DriverError('源实例的磁盘已不存在，无法克隆', false);
    if (source.hostId !== spec.hostId) throw new DriverError('Docker 主机上只能克隆到源实例所在的主机', false);
    const container = await this.find(engine.docker, source.instanceId);
    const ref = systemDiskRef(spec.instanceId);
    if (container) await engine.docker.getContainer(container.id).commit({ repo: SYSTEM_DISK_REPOSITORY, tag: spec.instanceId, pause: false });
    else await engine.docker.getImage(source.systemImage).tag({ repo: SYSTEM_DISK_REPOSITORY, tag: spec.instanceId });
    return ref;
  }

  /** Copies one machine's whole data volume into another's on the same host with a short-lived helper container. */
  private async copyVolumeNow(engine: Engine, fromInstanceId: string, toInstanceId: string): Promise<void> {
    const helper = await engine.docker.createContainer({
      Image: this.options.baseImage,
      Entrypoint: ['/bin/sh', '-c'],
      Cmd: ['cp -a /from/. /to/'],
      Labels: { [INSTANCE_LABEL]: toInstanceId, [COPY_LABEL]: `clone-${toInstanceId}` },
      HostConfig: {
        Mounts: [
          { Type: 'volume', Source: volumeName(fromInstanceId), Target: '/from', ReadOnly: true },
          { Type: 'volume', Source: volumeName(toInstanceId), Target: '/to' },
        ],
      },
    });
    try {
      await helper.start();
      const result = (await helper.wait()) as { StatusCode: number };
      if (result.StatusCode !== 0) throw new DriverError('克隆时复制数据盘失败', false);
    } finally {
      await helper.remove({ force: true }).catch(() => undefined);
    }
  }

  async start(instanceId: string, gpuNum: number, mounts: MachineMounts): Promise<void> {
    const { fileStorage } = mounts;
    const datasets = [...mounts.datasets];
    const { row, engine } = await this.existing(instanceId);
    try {
      let found = await this.find(engine.docker, instanceId);
      if (found?.state === 'running' || found?.state === 'restarting') return;
      const current = found ? gpusOf(found.labels) : [];
      const gpus = await this.claimGpus(engine, instanceId, gpuNum, current);
      let image = row.systemImage;
      if (!found || !sameSet(current, gpus) || fileStorageOf(found.labels) !== fileStorage || !sameDatasets(datasetsOf(found.labels), datasets)) {
        // Before the container goes: a start refused for a missing dataset leaves the machine as it was.
        await this.assertDatasetFolders(datasets);
        // A container's devices and mounts cannot change: keep its system disk as an image, then make it anew with the same volume and port.
        if (found) {
          await engine.docker.getContainer(found.id).commit({ repo: SYSTEM_DISK_REPOSITORY, tag: instanceId, pause: false });
          image = systemDiskRef(instanceId);
          await this.db.update(dockerMachines).set({ systemImage: image, updatedAt: new Date() }).where(eq(dockerMachines.instanceId, instanceId));
          await engine.docker.getContainer(found.id).remove({ force: true });
        }
        const container = await this.createContainer(engine, { ...row, systemImage: image, fileStorage, datasets }, gpus);
        found = { id: container.id, state: 'created', labels: {} };
        await this.db.update(dockerMachines).set({ fileStorage, datasets, updatedAt: new Date() }).where(eq(dockerMachines.instanceId, instanceId));
      }
      await this.db.update(dockerMachines).set({ desired: 'running', updatedAt: new Date() }).where(eq(dockerMachines.instanceId, instanceId));
      await engine.docker.getContainer(found.id).start();
    } catch (error) {
      if (statusOf(error) === 304) return;
      throw driverErrorOf(error, '开机失败');
    }
  }

  async stop(instanceId: string): Promise<void> {
    const { engine } = await this.existing(instanceId);
    try {
      await this.db.update(dockerMachines).set({ desired: 'stopped', updatedAt: new Date() }).where(eq(dockerMachines.instanceId, instanceId));
      // Forwarders stop first: once the machine is off its address may go to another machine.
      await this.services.stopAll(engine.docker, instanceId);
      const found = await this.find(engine.docker, instanceId);
      if (!found || found.state === 'exited' || found.state === 'created') return;
      await engine.docker.getContainer(found.id).stop({ t: STOP_GRACE_SECONDS });
    } catch (error) {
      if (statusOf(error) === 304) return;
      throw driverErrorOf(error, '关机失败');
    }
  }

  async destroy(instanceId: string): Promise<void> {
    const row = await this.machine(instanceId);
    if (!row) return;
    const engine = await this.options.engines.engine(row.hostId);
    try {
      const owned = await engine.docker.listContainers({ all: true, filters: { label: [`${INSTANCE_LABEL}=${instanceId}`] } });
      for (const container of owned) await ignoreMissing(engine.docker.getContainer(container.Id).remove({ force: true }));
      // A finished copy out of this machine keeps its helper (labelled with the target) and with it a hold on this volume.
      const holders = await engine.docker.listContainers({ all: true, filters: { volume: [volumeName(instanceId)] } });
      for (const container of holders) await ignoreMissing(engine.docker.getContainer(container.Id).remove({ force: true }));
      await ignoreMissing(engine.docker.getVolume(volumeName(instanceId)).remove());
      await ignoreMissing(engine.docker.getImage(systemDiskRef(instanceId)).remove());
    } catch (error) {
      throw driverErrorOf(error, '释放失败');
    }
    await this.releaseGpus(instanceId);
    await this.db.delete(dockerMachines).where(eq(dockerMachines.instanceId, instanceId));
  }

  async logs(instanceId: string, lines: number): Promise<string> {
    const { engine } = await this.existing(instanceId);
    try {
      const found = await this.find(engine.docker, instanceId);
      if (!found || lines <= 0) return '';
      const log = await engine.docker.getContainer(found.id).logs({ stdout: true, stderr: true, tail: lines, follow: false });
      return demultiplexed(log);
    } catch (error) {
      throw driverErrorOf(error, '读取日志失败');
    }
  }

  async setPassword(instanceId: string, password: string): Promise<void> {
    const { engine } = await this.existing(instanceId);
    try {
      const found = await this.find(engine.docker, instanceId);
      if (found?.state !== 'running') throw new DriverError('实例未在运行，无法修改密码', false);
      const code = await execWithInput(engine.docker.getContainer(found.id), ['chpasswd'], `root:${password}\n`);
      if (code !== 0) throw new DriverError('修改密码失败：实例中的 chpasswd 返回错误', false);
    } catch (error) {
      throw driverErrorOf(error, '修改密码失败');
    }
  }

  /** Binds `publicPort` of the machine's host to `port` inside it (services.ts); HTTP and TCP are both relayed as TCP. */
  async exposePort(instanceId: string, service: { port: number; protocol: 'http' | 'tcp'; publicPort: number | null }): Promise<void> {
    const row = await this.machine(instanceId);
    if (!row) throw new DriverError('实例正在创建，请在实例运行后再添加', true);
    if (service.publicPort === null) throw new DriverError('Docker 主机上的自定义服务需要一个主机端口', false);
    const engine = await this.options.engines.engine(row.hostId);
    try {
      const machine = await this.findInfo(engine.docker, instanceId);
      await this.services.expose(engine.docker, instanceId, { port: service.port, publicPort: service.publicPort }, addressOf(machine));
    } catch (error) {
      throw driverErrorOf(error, '设置自定义服务失败');
    }
  }

  async unexposePort(instanceId: string, port: number): Promise<void> {
    const row = await this.machine(instanceId);
    if (!row) return;
    const engine = await this.options.engines.engine(row.hostId);
    try {
      await this.services.unexpose(engine.docker, instanceId, port);
    } catch (error) {
      throw driverErrorOf(error, '删除自定义服务失败');
    }
  }

  async observe(instanceIds: readonly string[]): Promise<Map<string, ObservedMachine>> {
    const observed = new Map<string, ObservedMachine>();
    if (instanceIds.length === 0) return observed;
    const rows = await this.db.select().from(dockerMachines).where(inArray(dockerMachines.instanceId, [...instanceIds]));
    const byHost = new Map<string, MachineRow[]>();
    for (const row of rows) byHost.set(row.hostId, [...(byHost.get(row.hostId) ?? []), row]);
    await Promise.all(
      [...byHost].map(async ([hostId, machines]) => {
        let engine: Engine;
        try {
          engine = await this.options.engines.engine(hostId);
          const list = await engine.docker.listContainers({ all: true, filters: { label: [INSTANCE_LABEL] } });
          const containers = new Map(list.filter((item) => isMachineContainer(item.Labels)).map((item) => [item.Labels[INSTANCE_LABEL] ?? '', item]));
          const forwarders = list.filter((item) => isServiceForwarder(item.Labels));
          for (const row of machines) {
            const machine = containers.get(row.instanceId);
            observed.set(row.instanceId, await this.observeOne(engine, row, machine));
            const own = forwarders.filter((item) => item.Labels[INSTANCE_LABEL] === row.instanceId);
            if (own.length > 0) await this.services.sync(engine.docker, row.instanceId, machine, own);
          }
        } catch (error) {
          const reason = error instanceof DriverError ? error.message : UNREACHABLE_REASON;
          if (!(error instanceof DriverError) && !isUnanswered(error)) throw error;
          for (const row of machines) observed.set(row.instanceId, { state: 'unreachable', reason });
        }
      }),
    );
    for (const id of instanceIds) if (!observed.has(id)) observed.set(id, { state: 'absent' });
    return observed;
  }

  private async observeOne(engine: Engine, row: MachineRow, container: Docker.ContainerInfo | undefined): Promise<ObservedMachine> {
    const base = { ssh: { host: engine.publicAddress, port: row.sshPort }, image: row.imageId };
    // Between the removal and the re-creation of a container its disks live on (volume, committed image): the machine is off.
    if (!container) return { state: 'stopped', gpuNum: 0, ...base };
    const gpuNum = gpusOf(container.Labels).length;
    const state = container.State as string;
    if (state === 'running' || state === 'paused') {
      const details = await engine.docker.getContainer(container.Id).inspect();
      return {
        state: 'running',
        runningSince: new Date(details.State.StartedAt),
        gpuNum,
        fileStorage: fileStorageOf(container.Labels),
        datasets: datasetsOf(container.Labels).map((dataset) => dataset.name),
        ...base,
      };
    }
    if (state === 'restarting') return { state: 'starting', gpuNum, ...base };
    if (state === 'removing') return { state: 'deleting', ...base };
    if (state === 'dead') return { state: 'error', reason: '容器已损坏（dead）', ...base };
    if (state === 'created') return { state: (row.desired === 'running' ? 'creating' : 'stopped') as MachineState, gpuNum, ...base };
    if (row.desired === 'running') {
      const details = await engine.docker.getContainer(container.Id).inspect();
      // A command machine ended with its command, however soon: that is its result, not a failed start.
      if (row.command !== null) return { state: 'stopped', gpuNum, exitCode: details.State.ExitCode, ...base };
      const ranSeconds = (new Date(details.State.FinishedAt).getTime() - new Date(details.State.StartedAt).getTime()) / 1000;
      if (details.State.ExitCode !== 0 && ranSeconds < FAILED_START_SECONDS) {
        return { state: 'error', reason: `容器启动失败（退出码 ${details.State.ExitCode}${details.State.Error ? `：${details.State.Error}` : ''}），请检查镜像是否含有 sshd`, ...base };
      }
    }
    return { state: 'stopped', gpuNum, ...base };
  }

  async reinstall(instanceId: string, image: string, requestedAt: Date): Promise<void> {
    const { row, engine } = await this.existing(instanceId);
    if (row.imageId === image && row.reinstalledFor && row.reinstalledFor.getTime() >= requestedAt.getTime()) return;
    try {
      const ref = await this.imageRefOf(image);
      await this.ensureImage(engine, ref);
      const old = await this.find(engine.docker, instanceId);
      // The new system disk gets the old one's root password and keys, so the user's login survives the reset.
      const carried: FirstBootFiles = {};
      if (old) {
        if (old.state === 'running') await engine.docker.getContainer(old.id).stop({ t: STOP_GRACE_SECONDS }).catch(ignore304);
        carried.rootHash = rootHashOf((await readFile(engine.docker.getContainer(old.id), '/etc/shadow')) ?? '') ?? undefined;
        const pending = await readFile(engine.docker.getContainer(old.id), '/etc/slg/root-password');
        if (pending) carried.rootPassword = pending.trim().replace(/^root:/, '');
        carried.authorizedKeys = ((await readFile(engine.docker.getContainer(old.id), '/root/.ssh/authorized_keys')) ?? '').split('\n').filter((line) => line.trim() !== '');
        await engine.docker.getContainer(old.id).remove({ force: true });
      }
      const fresh = { ...row, systemImage: ref, imageId: image };
      const container = await this.createContainer(engine, fresh, []);
      await this.putFirstBootFiles(container, carried);
      await ignoreMissing(engine.docker.getImage(systemDiskRef(instanceId)).remove());
      await this.releaseGpus(instanceId);
      await this.db
        .update(dockerMachines)
        .set({ systemImage: ref, imageId: image, desired: 'stopped', reinstalledFor: requestedAt, updatedAt: new Date() })
        .where(eq(dockerMachines.instanceId, instanceId));
    } catch (error) {
      throw driverErrorOf(error, '重置系统失败');
    }
  }

  async saveImage(instanceId: string, imageUid: string): Promise<void> {
    const { engine } = await this.existing(instanceId);
    const tagged = `${PRIVATE_IMAGE_REPOSITORY}:${imageUid}`;
    try {
      const already = await engine.docker
        .getImage(tagged)
        .inspect()
        .then(() => true)
        .catch((error: unknown) => (statusOf(error) === 404 ? false : Promise.reject(error)));
      if (already) return;
      const found = await this.find(engine.docker, instanceId);
      if (!found) throw new DriverError('容器不存在', false);
      if (found.state === 'running' || found.state === 'restarting') throw new DriverError('实例未关机，无法保存镜像', false);
      await engine.docker.getContainer(found.id).commit({ repo: PRIVATE_IMAGE_REPOSITORY, tag: imageUid, pause: false });
      if (this.options.registryUrl) {
        const image = engine.docker.getImage(tagged);
        await image.tag({ repo: `${this.options.registryUrl}/${PRIVATE_IMAGE_REPOSITORY}`, tag: imageUid });
        const stream = await engine.docker.getImage(`${this.options.registryUrl}/${tagged}`).push({ authconfig: {} });
        await new Promise<void>((resolve, reject) => engine.docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())));
      }
    } catch (error) {
      throw driverErrorOf(error, '保存镜像失败');
    }
  }

  async observeImages(imageUids: readonly string[]): Promise<Map<string, ObservedImage>> {
    const observed = new Map<string, ObservedImage>();
    for (const engine of await this.options.engines.all()) {
      for (const uid of imageUids) {
        if (observed.has(uid)) continue;
        try {
          const image = await engine.docker.getImage(`${PRIVATE_IMAGE_REPOSITORY}:${uid}`).inspect();
          observed.set(uid, { state: 'ready', sizeGb: Math.round((image.Size / 1e9) * 10) / 10 });
        } catch (error) {
          if (statusOf(error) !== 404 && !isUnanswered(error)) throw error;
        }
      }
    }
    for (const uid of imageUids) if (!observed.has(uid)) observed.set(uid, { state: 'absent' });
    return observed;
  }

  async deleteImage(imageUid: string): Promise<void> {
    for (const engine of await this.options.engines.all()) {
      // Untagging leaves the layers to containers made from it, which keep running.
      await ignoreMissing(engine.docker.getImage(`${PRIVATE_IMAGE_REPOSITORY}:${imageUid}`).remove({ force: true })).catch((error: unknown) => {
        throw driverErrorOf(error, '删除镜像失败');
      });
    }
  }

  /** The local volume driver sets no size: the platform's books hold it, and a shrink may not go below what is used. */
  async resizeDataDisk(instanceId: string, sizeGb: number): Promise<void> {
    const { row, engine } = await this.existing(instanceId);
    if (row.dataDiskGb === sizeGb) return;
    if (sizeGb < row.dataDiskGb) {
      const found = await this.find(engine.docker, instanceId).catch((error: unknown) => Promise.reject(driverErrorOf(error, '缩容失败')));
      if (found && found.state !== 'exited' && found.state !== 'created') throw new DriverError('实例未关机，不能缩容数据盘', false);
      const used = (await this.dataDiskUsage([instanceId])).get(instanceId) ?? 0;
      if (used > sizeGb) throw new DriverError(`数据盘已使用 ${used} GB，不能缩容到 ${sizeGb} GB`, false);
    }
    await this.db.update(dockerMachines).set({ dataDiskGb: sizeGb, updatedAt: new Date() }).where(eq(dockerMachines.instanceId, instanceId));
  }

  async dataDiskUsage(instanceIds: readonly string[]): Promise<Map<string, number>> {
    const usage = new Map<string, number>();
    if (instanceIds.length === 0) return usage;
    const rows = await this.db.select({ instanceId: dockerMachines.instanceId, hostId: dockerMachines.hostId }).from(dockerMachines).where(inArray(dockerMachines.instanceId, [...instanceIds]));
    for (const hostId of new Set(rows.map((row) => row.hostId))) {
      try {
        const engine = await this.options.engines.engine(hostId);
        const df = (await engine.docker.df()) as { Volumes?: { Name: string; UsageData?: { Size: number } }[] };
        const sizes = new Map((df.Volumes ?? []).map((volume) => [volume.Name, volume.UsageData?.Size ?? 0]));
        for (const row of rows.filter((candidate) => candidate.hostId === hostId)) {
          const bytes = sizes.get(volumeName(row.instanceId));
          if (bytes !== undefined) usage.set(row.instanceId, Math.round((Math.max(bytes, 0) / 1e9) * 100) / 100);
        }
      } catch (error) {
        if (!isUnanswered(error)) throw error;
      }
    }
    return usage;
  }

  async copyData(taskUid: string, fromInstanceId: string, toInstanceId: string, path: string): Promise<void> {
    const from = await this.existing(fromInstanceId).catch(() => Promise.reject(new DriverError('源实例的数据盘已不存在', false)));
    const to = await this.existing(toInstanceId).catch(() => Promise.reject(new DriverError('目标实例的数据盘已不存在', false)));
    const relative = path === DATA_DISK_MOUNT_PATH ? '' : path.slice(DATA_DISK_MOUNT_PATH.length);
    try {
      if (from.row.hostId === to.row.hostId) {
        const engine = to.engine;
        const existing = await engine.docker.listContainers({ all: true, filters: { label: [`${COPY_LABEL}=${taskUid}`] } });
        if (existing.length > 0) return;
        const script = copyDataScript(relative, '');
        const helper = await engine.docker.createContainer({
          Image: this.options.baseImage,
          Entrypoint: ['/bin/sh', '-c'],
          Cmd: [script],
          Labels: { [INSTANCE_LABEL]: toInstanceId, [COPY_LABEL]: taskUid },
          HostConfig: {
            Mounts: [
              { Type: 'volume', Source: volumeName(fromInstanceId), Target: '/from', ReadOnly: true },
              { Type: 'volume', Source: volumeName(toInstanceId), Target: '/to' },
            ],
          },
        });
        await helper.start();
        return;
      }
      if (this.streamedCopies.has(taskUid)) return;
      await this.streamBetweenHosts(taskUid, from, to, path);
    } catch (error) {
      throw driverErrorOf(error, '拷贝数据失败');
    }
  }

  /** Between hosts the path travels as a tar stream from the source container to the target's, through this process. */
  private async streamBetweenHosts(taskUid: string, from: { row: MachineRow; engine: Engine }, to: { row: MachineRow; engine: Engine }, path: string): Promise<void> {
    const source = await this.find(from.engine.docker, from.row.instanceId);
    const target = await this.find(to.engine.docker, to.row.instanceId);
    if (!source || !target) throw new DriverError('实例的容器不存在，无法拷贝', false);
    const archive = (await from.engine.docker.getContainer(source.id).getArchive({ path })) as unknown as Readable;
    const counter = new PassThrough();
    const record = { state: 'running' as ObservedCopy['state'], totalGb: 0, copiedGb: 0, abort: () => counter.destroy(new Error('cancelled')) };
    this.streamedCopies.set(taskUid, record);
    let bytes = 0;
    counter.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      record.copiedGb = Math.round((bytes / 1e9) * 100) / 100;
    });
    archive.pipe(counter);
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    to.engine.docker
      .getContainer(target.id)
      .putArchive(counter, { path: parent })
      .then(() => Object.assign(record, { state: 'done', totalGb: record.copiedGb }))
      .catch((error: unknown) => Object.assign(record, record.state === 'cancelled' ? {} : { state: 'failed', reason: `拷贝中断：${String(error)}` }));
  }

  async observeCopies(taskUids: readonly string[]): Promise<Map<string, ObservedCopy>> {
    const observed = new Map<string, ObservedCopy>();
    for (const uid of taskUids) {
      const streamed = this.streamedCopies.get(uid);
      if (streamed) observed.set(uid, { state: streamed.state, totalGb: streamed.totalGb, copiedGb: streamed.copiedGb, ...(streamed.reason ? { reason: streamed.reason } : {}) });
    }
    const wanted = taskUids.filter((uid) => !observed.has(uid));
    if (wanted.length > 0) {
      for (const engine of await this.options.engines.all()) {
        let helpers: Docker.ContainerInfo[];
        try {
          helpers = await engine.docker.listContainers({ all: true, filters: { label: [COPY_LABEL] } });
        } catch (error) {
          if (isUnanswered(error)) continue;
          throw error;
        }
        for (const helper of helpers) {
          const uid = helper.Labels[COPY_LABEL] ?? '';
          if (!wanted.includes(uid) || observed.has(uid)) continue;
          observed.set(uid, await this.observeHelper(engine, helper));
        }
      }
    }
    for (const uid of taskUids) if (!observed.has(uid)) observed.set(uid, { state: 'absent', totalGb: 0, copiedGb: 0 });
    return observed;
  }

  private async observeHelper(engine: Engine, helper: Docker.ContainerInfo): Promise<ObservedCopy> {
    const container = engine.docker.getContainer(helper.Id);
    const log = (await container.logs({ stdout: true, stderr: false })).toString('utf8');
    const kilobytes = Number(/(\d+)/.exec(log)?.[1] ?? '0');
    const totalGb = Math.round((kilobytes / 1024 ** 2) * 100) / 100;
    if (helper.State === 'running' || helper.State === 'created') return { state: 'running', totalGb, copiedGb: 0 };
    const details = await container.inspect();
    const code = details.State.ExitCode;
    if (code === 0) return { state: 'done', totalGb, copiedGb: totalGb };
    if (code === KILLED) return { state: 'cancelled', totalGb, copiedGb: 0 };
    if (code === COPY_SOURCE_MISSING) return { state: 'failed', totalGb: 0, copiedGb: 0, reason: '源实例的数据盘上没有该路径' };
    return { state: 'failed', totalGb, copiedGb: 0, reason: `拷贝失败（退出码 ${code}），可能是目标数据盘空间不足` };
  }

  async cancelCopy(taskUid: string): Promise<void> {
    const streamed = this.streamedCopies.get(taskUid);
    if (streamed) {
      if (streamed.state === 'running') {
        streamed.state = 'cancelled';
        streamed.abort();
      }
      return;
    }
    for (const engine of await this.options.engines.all()) {
      try {
        const helpers = await engine.docker.listContainers({ filters: { label: [`${COPY_LABEL}=${taskUid}`], status: ['running'] } });
        for (const helper of helpers) await engine.docker.getContainer(helper.Id).kill().catch(ignore304);
      } catch (error) {
        throw driverErrorOf(error, '取消拷贝失败');
      }
    }
  }
}

function isMachineContainer(labels: Record<string, string>): boolean {
  return !labels[COPY_LABEL] && !isServiceForwarder(labels);
}

function ignore304(error: unknown): void {
  if (statusOf(error) !== 304 && statusOf(error) !== 409) throw error;
}

/** Waits for a removal; one of something already gone counts as done. */
async function ignoreMissing(removal: Promise<unknown>): Promise<void> {
  try {
    await removal;
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
  }
}

/** A file of a container's filesystem (running or not), or null when there is none. */
async function readFile(container: Docker.Container, path: string): Promise<string | null> {
  try {
    const files = await filesOfArchive((await container.getArchive({ path })) as unknown as Readable);
    return [...files.values()][0] ?? null;
  } catch (error) {
    if (statusOf(error) === 404) return null;
    throw error;
  }
}

/** Runs a command in a running container with `input` on its stdin (never on its command line); resolves to its exit code. */
async function execWithInput(container: Docker.Container, command: string[], input: string): Promise<number> {
  const exec = await container.exec({ Cmd: command, AttachStdin: true, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: true });
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.on('error', reject);
    stream.resume();
    stream.end(input);
  });
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const status = await exec.inspect();
    if (!status.Running) return status.ExitCode ?? 1;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return 1;
}
