import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import WsClient from 'ws';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, listenLocally, loginToken, rechargeThroughSandbox, registerUser, type TestApp } from '../../test/helpers.js';
import { serveExporter } from '../cli/exporter.js';
import { instances } from '../db/schema/index.js';
import { Reconciler } from '../modules/rental/reconciler.js';
import { sshReady, sshRun } from '../../test/ssh.js';
import { expectSoon, prometheusBinary, prometheusPort, prometheusRequired, startPrometheus } from '../../test/prometheus.js';
import { DriverError, type ComputeDriver, type DatasetMount, type MachineMounts, type MachineSpec, type ObservedMachine } from './driver.js';
import { KubeConfig, KubernetesObjectApi } from '@kubernetes/client-node';
import { KubernetesDriver } from './kubernetes/driver.js';
import { FakeKubeApiServer } from '../../test/kube-apiserver.js';
import { insertHost } from '../../test/factories.js';
import { DEFAULT_BASE_IMAGE, DEFAULT_IMAGE_BUILDER } from '../config.js';
import { startRegistry } from '../../test/registry.js';
import { allowed, permissionOf, shippedRules } from '../../test/kube-rbac.js';
import { registerDockerEngine } from './docker/register.js';

/**
 * The driver contract (docs/compute.md), the same tests against every driver that can run here: `sim`
 * always, `docker` on the engine SLG_TEST_DOCKER_HOST names (CI starts one; `.ci/run` sets
 * SLG_REQUIRE_DOCKER_TESTS so a missing engine fails the run instead of skipping it).
 */
const dockerHost = process.env.SLG_TEST_DOCKER_HOST;
/** A script that stops and starts that engine's dockerd (`scripts/ci-dockerd.sh stop|start`), for the restart test. */
const dockerdControl = process.env.SLG_TEST_DOCKERD_CONTROL;
if ((!dockerHost || !dockerdControl) && process.env.SLG_REQUIRE_DOCKER_TESTS === '1') {
  throw new Error('SLG_TEST_DOCKER_HOST 或 SLG_TEST_DOCKERD_CONTROL 未设置：CI 必须在真实的 Docker 引擎上运行驱动契约测试');
}
/** STORAGE_ROOT of the Docker machines: the engine runs on this machine, so a directory here is what they bind. */
const storageRoot = mkdtempSync(join(tmpdir(), 'slg-ct-storage-'));
afterAll(() => rmSync(storageRoot, { recursive: true, force: true }));
const DOCKER_ENV = { COMPUTE_DRIVER: 'docker', DOCKER_HOST: dockerHost ?? '', DOCKER_GPUS: '4', DOCKER_PUBLIC_ADDRESS: '127.0.0.1', DOCKER_SSH_PORTS: '26000-26999', STORAGE_ROOT: storageRoot };
/** The ReadWriteMany claim (K8S_STORAGE_CLAIM) the fake cluster's machines mount their 文件存储 from. */
const STORAGE_CLAIM = 'slg-ct-files';
/** A start that mounts nothing. */
const NO_MOUNTS: MachineMounts = { fileStorage: null, datasets: [] };
const registerEngine = (test: TestApp, gpus = 4) =>
  registerDockerEngine(test.deps.database.db, { engineUrl: dockerHost ?? '', advertisedGpus: gpus, zoneId: undefined, gpuModelId: undefined, publicAddress: '127.0.0.1' });

interface Prepared {
  hostId: string;
  driver: ComputeDriver;
  /** What is left of a destroyed machine where the machines live (containers, volumes, objects). */
  leftovers?: (instanceId: string) => Promise<unknown[]>;
  /** What the machines' side says went wrong, for a failure message. */
  diagnose?: () => string;
  /**
   * Where a folder under STORAGE_ROOT (a 文件存储's key, a dataset's source) is on this machine, for the
   * test to put files there as the shared filesystem would (null: the machines are simulated); absent
   * when the driver was given nothing to mount from.
   */
  storeDirectory?: (path: string) => Promise<string | null>;
  /** The API requests the driver made (Kubernetes), to check them against the shipped RBAC. */
  requests?: () => readonly { method: string; path: string }[];
  close?: () => Promise<void>;
}

interface Subject {
  name: 'sim' | 'docker' | 'kubernetes';
  /** Where the machines run, when the name does not say it. */
  where: string;
  env: Record<string, string>;
  prepare(test: TestApp): Promise<Prepared>;
}

const engine = () => new Docker({ socketPath: new URL(dockerHost ?? '').pathname });

/**
 * A real cluster for the same contract, only when SLG_TEST_KUBECONFIG names one (never the KUBECONFIG
 * a developer works with): a node labelled for the market with GPUs to give, a namespace with the
 * RBAC of deploy/kubernetes, and a registry the node pulls from (docs/compute.md).
 */
const realCluster = process.env.SLG_TEST_KUBECONFIG
  ? {
      kubeconfig: process.env.SLG_TEST_KUBECONFIG,
      node: process.env.SLG_TEST_K8S_NODE ?? '',
      namespace: process.env.SLG_TEST_K8S_NAMESPACE ?? 'slg-instances',
      registryUrl: process.env.SLG_TEST_REGISTRY_URL ?? '',
      baseImage: process.env.SLG_TEST_K8S_BASE_IMAGE ?? `${process.env.SLG_TEST_REGISTRY_URL ?? ''}/slg/base:bookworm`,
      storageClass: process.env.SLG_TEST_K8S_STORAGE_CLASS,
    }
  : null;

const SUBJECTS: Subject[] = [
  {
    name: 'sim',
    where: '',
    env: { SIM_CREATE_SECONDS: '0', SIM_START_SECONDS: '0', SIM_STOP_SECONDS: '0', SIM_DESTROY_SECONDS: '0', SIM_REINSTALL_SECONDS: '0', SIM_SAVE_IMAGE_SECONDS: '0', SIM_JOB_SECONDS: '1' },
    prepare: async (test) => ({ hostId: 'bj-a-4090-01', driver: test.deps.compute.driver, storeDirectory: async () => null }),
  },
  ...(dockerHost
    ? [
        {
          name: 'docker' as const,
          where: '',
          env: DOCKER_ENV,
          prepare: async (test: TestApp): Promise<Prepared> => ({
            hostId: await registerEngine(test),
            driver: test.deps.compute.driver,
            storeDirectory: async (key) => join(test.deps.config.storageRoot, key),
            leftovers: async (instanceId) => [
              ...(await engine().listContainers({ all: true, filters: { label: [`slg.io/instance-id=${instanceId}`] } })),
              ...((await engine().listVolumes({ filters: { label: [`slg.io/instance-id=${instanceId}`] } })).Volumes ?? []),
            ],
          }),
        },
        {
          // The fake API server of test/kube-apiserver.ts (a test double: no kube-apiserver runs here), its pods real containers on CI's engine.
          name: 'kubernetes' as const,
          where: ' (fake API server)',
          env: {},
          prepare: async (test: TestApp): Promise<Prepared> => {
            const hostId = await insertHost(test, 'bj-a-4090-01');
            const namespace = `slg-ct-${process.pid}`;
            const cluster = new FakeKubeApiServer({
              docker: engine(),
              namespace,
              nodes: [{ name: hostId, labels: { 'slg.io/zone': 'bj-a', 'slg.io/gpu-model': 'rtx-4090' }, allocatable: { cpu: '64', memory: '512Gi', gpus: 8 }, ready: 'True' }],
              allowVolumeExpansion: true,
              nodePorts: { min: 28_000, max: 28_999 },
            });
            const url = await cluster.start();
            const registry = await startRegistry();
            const driver = new KubernetesDriver({
              db: test.deps.database.db,
              kubeConfig: cluster.kubeConfig(url),
              namespace,
              serviceType: 'NodePort',
              nodePorts: { min: 28_000, max: 28_999 },
              baseImage: DEFAULT_BASE_IMAGE,
              registryUrl: registry.address,
              builderImage: DEFAULT_IMAGE_BUILDER,
              storageClaim: STORAGE_CLAIM,
            });
            // What the operator makes once (docs/compute.md): the claim holding STORAGE_ROOT's tree.
            cluster.put({
              apiVersion: 'v1',
              kind: 'PersistentVolumeClaim',
              metadata: { name: STORAGE_CLAIM },
              spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '100Gi' } } },
            });
            return {
              hostId,
              driver,
              storeDirectory: async (key) => join(await cluster.claimDirectory(STORAGE_CLAIM), key),
              leftovers: async (instanceId) => [
                ...(['statefulsets', 'services', 'secrets', 'persistentvolumeclaims', 'pods', 'jobs'] as const).flatMap((kind) =>
                  cluster.stored(kind).filter((object) => object.metadata.labels?.['slg.io/instance-id'] === instanceId),
                ),
                ...(await engine().listContainers({ all: true, filters: { label: [`slg.io/instance-id=${instanceId}`] } })),
              ],
              diagnose: () => `the fake kubelet's last error: ${cluster.lastSyncError ?? 'none'}`,
              requests: () => cluster.requests,
              close: async () => {
                await cluster.close();
                registry.stop();
              },
            };
          },
        },
      ]
    : []),
  ...(realCluster
    ? [
        {
          // A real cluster (kind, k3s, a cloud's): docs/compute.md "Testing against a real cluster" says how to prepare it.
          name: 'kubernetes' as const,
          where: ` (the cluster of SLG_TEST_KUBECONFIG)`,
          env: {},
          prepare: async (test: TestApp): Promise<Prepared> => {
            const kubeConfig = new KubeConfig();
            kubeConfig.loadFromFile(realCluster.kubeconfig);
            const driver = new KubernetesDriver({
              db: test.deps.database.db,
              kubeConfig,
              namespace: realCluster.namespace,
              serviceType: 'NodePort',
              nodePorts: { min: 30_000, max: 32_767 },
              baseImage: realCluster.baseImage,
              registryUrl: realCluster.registryUrl,
              builderImage: DEFAULT_IMAGE_BUILDER,
              ...(realCluster.storageClass ? { storageClass: realCluster.storageClass } : {}),
            });
            const synced = await driver.syncHosts();
            if (!synced.registered.includes(realCluster.node)) throw new Error(`node ${realCluster.node} is no host: label it slg.io/zone and slg.io/gpu-model (${JSON.stringify(synced.skipped)})`);
            const objects = KubernetesObjectApi.makeApiClient(kubeConfig);
            return {
              hostId: realCluster.node,
              driver,
              leftovers: async (instanceId) => {
                const kinds = [['apps/v1', 'StatefulSet'], ['v1', 'Service'], ['v1', 'Secret'], ['v1', 'PersistentVolumeClaim'], ['v1', 'Pod'], ['batch/v1', 'Job']] as const;
                const lists = await Promise.all(kinds.map(([apiVersion, kind]) => objects.list(apiVersion, kind, realCluster.namespace, undefined, undefined, undefined, undefined, `slg.io/instance-id=${instanceId}`)));
                return lists.flatMap((list) => list.items);
              },
            };
          },
        },
      ]
    : []),
];

let counter = 0;
function machineId(): string {
  counter += 1;
  return `slg-ct${process.pid % 1000}${counter}${Date.now() % 100000}`.slice(0, 16);
}

// Real machines start in seconds, and in CI beside another test file in several: each test may take two minutes.
// A loop rather than describe.each: each's `$where` would print an empty place as ''.
for (const subject of SUBJECTS) describe(`the ${subject.name} driver${subject.where} keeps the contract`, { timeout: 120_000 }, () => {
  let test: TestApp;
  let prepared: Prepared;
  let driver: ComputeDriver;
  let hostId: string;
  const made: string[] = [];

  beforeAll(async () => {
    test = await createTestApp({ env: subject.env });
    prepared = await subject.prepare(test);
    driver = prepared.driver;
    hostId = prepared.hostId;
  });
  // Removing the machines' disks (a system disk each on Kubernetes) takes a while on a busy machine.
  afterAll(async () => {
    for (const id of made) await driver.destroy(id);
    await prepared?.close?.();
    await test?.close();
  }, 180_000);

  function spec(overrides: Partial<MachineSpec> = {}): MachineSpec {
    const instanceId = machineId();
    made.push(instanceId);
    return {
      instanceId,
      hostId,
      gpuNum: 1,
      imageId: 'pytorch-2.5.1-py3.12-cu124',
      cpuCores: 1,
      memoryGb: 1,
      dataDiskGb: 50,
      rootPassword: 'Contract-Pw-1',
      authorizedKeys: [],
      ...overrides,
    };
  }

  async function until(instanceId: string, state: ObservedMachine['state']): Promise<ObservedMachine> {
    let seen: ObservedMachine | undefined;
    for (let attempt = 0; attempt < 150; attempt += 1) {
      seen = (await driver.observe([instanceId])).get(instanceId);
      if (seen?.state === state) return seen;
      if (seen?.state === 'error') throw new Error(`${instanceId} failed: ${seen.reason}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`${instanceId} never became ${state}; last seen ${JSON.stringify(seen)}${prepared.diagnose ? `; ${prepared.diagnose()}` : ''}`);
  }

  it('creates a machine that runs with its GPUs and an SSH address, and a second create changes nothing', async () => {
    const machine = spec({ gpuNum: 2 });
    await driver.create(machine);
    const running = await until(machine.instanceId, 'running');
    expect(running.gpuNum).toBe(2);
    expect(running.ssh?.port).toBeGreaterThan(0);
    expect(running.runningSince).toBeInstanceOf(Date);
    await driver.create(machine);
    const again = (await driver.observe([machine.instanceId])).get(machine.instanceId);
    expect(again?.runningSince?.getTime()).toBe(running.runningSince?.getTime());
    expect(again?.ssh).toEqual(running.ssh);
  });

  it('stops, starts without GPUs, starts with another GPU count, keeping its SSH address', async () => {
    const machine = spec({ gpuNum: 1 });
    await driver.create(machine);
    const first = await until(machine.instanceId, 'running');
    await driver.stop(machine.instanceId);
    await driver.stop(machine.instanceId);
    await until(machine.instanceId, 'stopped');
    await expect(driver.setPassword(machine.instanceId, 'Another-Pw-2')).rejects.toMatchObject({ retryable: false });

    await driver.start(machine.instanceId, 0, NO_MOUNTS);
    expect((await until(machine.instanceId, 'running')).gpuNum).toBe(0);
    await driver.start(machine.instanceId, 0, NO_MOUNTS);
    await driver.stop(machine.instanceId);
    await until(machine.instanceId, 'stopped');
    await driver.start(machine.instanceId, 3, NO_MOUNTS);
    const third = await until(machine.instanceId, 'running');
    expect(third.gpuNum).toBe(3);
    expect(third.ssh).toEqual(first.ssh);
    await driver.setPassword(machine.instanceId, 'Another-Pw-2');
  });

  /** Where a running machine takes SSH (real machines only: the simulated ones have no shell). */
  async function shell(instanceId: string, password: string): Promise<((command: string) => Promise<string>) | null> {
    if (subject.name === 'sim') return null;
    const running = await until(instanceId, 'running');
    const login = { host: running.ssh?.host ?? '', port: running.ssh?.port ?? 0, password };
    await sshReady(login);
    return (command) => sshRun(login, command);
  }

  it('rebuilds a stopped machine from another image, twice harmlessly, and starts it from that image with only its data disk kept', async () => {
    const machine = spec({ gpuNum: 0 });
    await driver.create(machine);
    await until(machine.instanceId, 'running');
    await (await shell(machine.instanceId, machine.rootPassword))?.('echo installed > /opt/tool.txt && echo data > /root/slg-data/data.txt');
    await driver.stop(machine.instanceId);
    await until(machine.instanceId, 'stopped');
    const requestedAt = new Date();
    await driver.reinstall(machine.instanceId, 'tensorflow-2.15.0-py3.10-cu122', requestedAt);
    await driver.reinstall(machine.instanceId, 'tensorflow-2.15.0-py3.10-cu122', requestedAt);
    expect((await until(machine.instanceId, 'stopped')).image).toBe('tensorflow-2.15.0-py3.10-cu122');
    await driver.start(machine.instanceId, 0, NO_MOUNTS);
    expect((await until(machine.instanceId, 'running')).image).toBe('tensorflow-2.15.0-py3.10-cu122');
    expect(await (await shell(machine.instanceId, machine.rootPassword))?.('cat /opt/tool.txt 2>/dev/null || echo gone; cat /root/slg-data/data.txt')).toBe(subject.name === 'sim' ? undefined : 'gone\ndata');
  });

  it('saves a stopped machine’s system disk as an image a new machine runs with what was installed, and deletes it again', async () => {
    const machine = spec({ gpuNum: 0 });
    await driver.create(machine);
    await until(machine.instanceId, 'running');
    await (await shell(machine.instanceId, machine.rootPassword))?.('echo installed > /opt/tool.txt && rm /etc/motd && echo data > /root/slg-data/data.txt');
    await driver.stop(machine.instanceId);
    await until(machine.instanceId, 'stopped');
    const uid = crypto.randomUUID();
    await driver.saveImage(machine.instanceId, uid);
    await driver.saveImage(machine.instanceId, uid);
    let image = (await driver.observeImages([uid])).get(uid);
    // Kubernetes builds and pushes an image of the disk: give it a minute and a half.
    for (let attempt = 0; attempt < 450 && image?.state === 'saving'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      image = (await driver.observeImages([uid])).get(uid);
    }
    expect(image?.state === 'ready' ? image.state : JSON.stringify(image)).toBe('ready');
    expect(image?.sizeGb).toBeGreaterThan(0);
    const made = spec({ gpuNum: 0, imageId: uid });
    await driver.create(made);
    await until(made.instanceId, 'running');
    // What was installed and what was deleted outside the data disk come along; the data disk does not.
    expect(await (await shell(made.instanceId, made.rootPassword))?.('cat /opt/tool.txt; ls /etc/motd 2>/dev/null | wc -l; ls -A /root/slg-data | wc -l')).toBe(subject.name === 'sim' ? undefined : 'installed\n0\n0');
    await driver.deleteImage(uid);
    await driver.deleteImage(uid);
    expect((await driver.observeImages([uid])).get(uid)).toEqual({ state: 'absent' });
  });

  it('measures the data disk and refuses to shrink it below what it holds (Kubernetes: at all)', async () => {
    const machine = spec({ gpuNum: 0 });
    await driver.create(machine);
    await until(machine.instanceId, 'running');
    const usage = await driver.dataDiskUsage([machine.instanceId]);
    expect(usage.get(machine.instanceId)).toBeGreaterThanOrEqual(0);
    await driver.resizeDataDisk(machine.instanceId, 80);
    await driver.resizeDataDisk(machine.instanceId, 80);
    await expect(driver.resizeDataDisk(machine.instanceId, 60)).rejects.toBeInstanceOf(DriverError);
  });

  it('copies a path of one machine’s data disk to another machine', async () => {
    const source = spec({ gpuNum: 0 });
    const target = spec({ gpuNum: 0 });
    await driver.create(source);
    await driver.create(target);
    await until(source.instanceId, 'running');
    await until(target.instanceId, 'running');
    const task = crypto.randomUUID();
    await driver.copyData(task, source.instanceId, target.instanceId, '/root/slg-data');
    await driver.copyData(task, source.instanceId, target.instanceId, '/root/slg-data');
    let copy = (await driver.observeCopies([task])).get(task);
    for (let attempt = 0; attempt < 100 && copy?.state === 'running'; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      copy = (await driver.observeCopies([task])).get(task);
    }
    expect(copy?.state).toBe('done');
  });

  /** Puts a file into a folder under STORAGE_ROOT as the shared filesystem would: the folder here, null where the machines are simulated. */
  async function putInStorage(path: string, file: string, content: string): Promise<string | null> {
    const directory = (await prepared.storeDirectory?.(path)) ?? null;
    if (directory) {
      await mkdir(directory, { recursive: true });
      await writeFile(join(directory, file), content);
    }
    return directory;
  }

  it('mounts the 文件存储 it is given at /root/slg-fs, and one made without it gets it at its next start', async (context) => {
    if (!prepared.storeDirectory) context.skip();
    const key = `${process.pid}/ct-${Date.now() % 100_000}`;
    const directory = await putInStorage(key, 'hello.txt', 'from the host\n');
    const withStore = spec({ gpuNum: 0, fileStorage: key });
    const without = spec({ gpuNum: 0 });
    // One after the other: a busy machine seeds two system disks at once slowly (Kubernetes).
    await driver.create(withStore);
    expect((await until(withStore.instanceId, 'running')).fileStorage).toBe(key);
    await driver.create(without);
    const first = await until(without.instanceId, 'running');
    expect(first.fileStorage ?? null).toBeNull();
    const inStore = await shell(withStore.instanceId, withStore.rootPassword);
    expect(await inStore?.('cat /root/slg-fs/hello.txt && echo written > /root/slg-fs/from-machine.txt')).toBe(directory ? 'from the host' : undefined);
    if (directory) expect(await readFile(join(directory, 'from-machine.txt'), 'utf8')).toBe('written\n');
    const inOther = await shell(without.instanceId, without.rootPassword);
    expect(await inOther?.('ls -A /root/slg-fs 2>/dev/null | wc -l; echo kept > /root/slg-data/marker.txt')).toBe(directory ? '0' : undefined);

    await driver.stop(without.instanceId);
    await until(without.instanceId, 'stopped');
    await driver.start(without.instanceId, 0, { fileStorage: key, datasets: [] });
    await driver.start(without.instanceId, 0, { fileStorage: key, datasets: [] });
    const again = await until(without.instanceId, 'running');
    expect(again.fileStorage).toBe(key);
    expect(again.ssh).toEqual(first.ssh);
    expect(await (await shell(without.instanceId, without.rootPassword))?.('cat /root/slg-fs/hello.txt /root/slg-fs/from-machine.txt /root/slg-data/marker.txt')).toBe(
      directory ? 'from the host\nwritten\nkept' : undefined,
    );
  });

  it('mounts the datasets it is given read-only under /root/slg-pub, and a start with others mounts those instead', async (context) => {
    if (!prepared.storeDirectory) context.skip();
    const tag = `${process.pid}-${Date.now() % 100_000}`;
    const dataset = async (name: string, source: string): Promise<DatasetMount> => {
      await putInStorage(source, `${name}.txt`, `rows of ${name}\n`);
      return { name, source };
    };
    const hanzi = await dataset(`hanzi-${tag}`, `.public/hanzi-${tag}`);
    const shared = await dataset(`shared-${tag}`, `.datasets/${crypto.randomUUID()}`);
    const later = await dataset(`later-${tag}`, `.datasets/${crypto.randomUUID()}`);
    const real = subject.name !== 'sim';
    const machine = spec({ gpuNum: 0, datasets: [hanzi, shared] });
    await driver.create(machine);
    expect((await until(machine.instanceId, 'running')).datasets?.sort()).toEqual([hanzi.name, shared.name].sort());
    const inMachine = await shell(machine.instanceId, machine.rootPassword);
    expect(await inMachine?.(`cat /root/slg-pub/${hanzi.name}/${hanzi.name}.txt /root/slg-pub/${shared.name}/${shared.name}.txt`)).toBe(
      real ? `rows of ${hanzi.name}\nrows of ${shared.name}` : undefined,
    );
    // Root, whom permissions do not stop: only a read-only mount refuses the write (EROFS).
    expect(await inMachine?.(`{ touch /root/slg-pub/${hanzi.name}/mine.txt; rm /root/slg-pub/${shared.name}/${shared.name}.txt; } 2>&1 | grep -c 'Read-only file system'`)).toBe(
      real ? '2' : undefined,
    );

    await driver.stop(machine.instanceId);
    await until(machine.instanceId, 'stopped');
    if (subject.name === 'docker') {
      const missing = { name: `gone-${tag}`, source: `.public/gone-${tag}` };
      await expect(driver.start(machine.instanceId, 0, { fileStorage: null, datasets: [shared, missing] })).rejects.toMatchObject({
        message: expect.stringContaining(`数据集 ${missing.name} 的目录`),
        retryable: false,
      });
      await until(machine.instanceId, 'stopped');
    }
    await driver.start(machine.instanceId, 0, { fileStorage: null, datasets: [later, shared] });
    await driver.start(machine.instanceId, 0, { fileStorage: null, datasets: [shared, later] });
    expect((await until(machine.instanceId, 'running')).datasets?.sort()).toEqual([later.name, shared.name].sort());
    // The folder a dropped dataset was mounted on may stay behind on the system disk, empty.
    expect(await (await shell(machine.instanceId, machine.rootPassword))?.(`cat /root/slg-pub/${later.name}/${later.name}.txt /root/slg-pub/${shared.name}/${shared.name}.txt; ls -A /root/slg-pub/${hanzi.name} 2>/dev/null | wc -l`)).toBe(
      real ? `rows of ${later.name}\nrows of ${shared.name}\n0` : undefined,
    );
  });

  it('destroys a machine (twice is harmless) and refuses to start what is gone', async () => {
    const machine = spec({ gpuNum: 1 });
    await driver.create(machine);
    await until(machine.instanceId, 'running');
    await driver.destroy(machine.instanceId);
    await driver.destroy(machine.instanceId);
    await until(machine.instanceId, 'absent');
    await expect(driver.start(machine.instanceId, 1, NO_MOUNTS)).rejects.toMatchObject({ retryable: false });
  });

  it('runs a machine’s command after sshd and ends with it: stopped with its exit code (however soon), its output in the logs, never run again', async () => {
    // The simulation runs no command: `exit N` is how it is told to fail.
    const failing = spec({ gpuNum: 0, command: subject.name === 'sim' ? 'exit 3' : 'echo hello-$SLG_TEST_VAR; exit 3', env: { SLG_TEST_VAR: 'x' } });
    const succeeding = spec({ gpuNum: 0, command: 'exit 0' });
    await driver.create(failing);
    await driver.create(succeeding);
    expect(await until(failing.instanceId, 'stopped')).toMatchObject({ exitCode: 3 });
    expect(await driver.logs(failing.instanceId, 20)).toContain(subject.name === 'sim' ? '[sim] exited with code 3' : 'hello-x');
    await driver.create(failing);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await driver.observe([failing.instanceId])).get(failing.instanceId)).toMatchObject({ state: 'stopped', exitCode: 3 });

    expect(await until(succeeding.instanceId, 'stopped')).toMatchObject({ exitCode: 0 });
    await expect(driver.logs('slg-nosuchmachine', 10)).rejects.toBeInstanceOf(DriverError);
  });

  if (subject.name !== 'sim') {
    it('keeps a command machine up while its command runs, SSH beside it with the machine’s environment in login shells, and a stop is no exit', async () => {
      const machine = spec({ gpuNum: 0, command: 'echo working; sleep 600', env: { SLG_TEST_VAR: "it's x" } });
      await driver.create(machine);
      const run = await shell(machine.instanceId, machine.rootPassword);
      expect(await run?.(`sh -lc 'echo "$SLG_TEST_VAR"'`)).toBe("it's x");
      expect(await driver.logs(machine.instanceId, 5)).toContain('working');
      await driver.stop(machine.instanceId);
      expect((await until(machine.instanceId, 'stopped')).exitCode).toBeUndefined();
    });

    it('is a real machine: SSH takes the root password, the data disk outlives power cycles and GPU changes, release removes all', async () => {
      const machine = spec({ gpuNum: 1, rootPassword: 'First-Pw-123' });
      await driver.create(machine);
      const running = await until(machine.instanceId, 'running');
      const address = { host: running.ssh?.host ?? '', port: running.ssh?.port ?? 0 };
      await sshReady({ ...address, password: 'First-Pw-123' });
      // A StatefulSet's pod is named (and its host) `<instance>-0`.
      expect(await sshRun({ ...address, password: 'First-Pw-123' }, 'echo kept > /root/slg-data/marker.txt && echo installed > /opt/tool.txt && hostname')).toBe(
        subject.name === 'kubernetes' ? `${machine.instanceId}-0` : machine.instanceId,
      );

      await driver.setPassword(machine.instanceId, 'Second-Pw-456');
      await expect(sshRun({ ...address, password: 'First-Pw-123' }, 'true')).rejects.toThrow(/authentication/i);
      expect(await sshRun({ ...address, password: 'Second-Pw-456' }, 'cat /root/slg-data/marker.txt')).toBe('kept');

      for (const gpus of [1, 0, 2]) {
        await driver.stop(machine.instanceId);
        await until(machine.instanceId, 'stopped');
        await driver.start(machine.instanceId, gpus, NO_MOUNTS);
        await until(machine.instanceId, 'running');
        await sshReady({ ...address, password: 'Second-Pw-456' });
        // The data disk and the system disk (what was installed outside the data disk) both outlive power-off.
        expect(await sshRun({ ...address, password: 'Second-Pw-456' }, 'cat /root/slg-data/marker.txt /opt/tool.txt')).toBe('kept\ninstalled');
      }

      await driver.destroy(machine.instanceId);
      await until(machine.instanceId, 'absent');
      expect(await prepared.leftovers?.(machine.instanceId)).toEqual([]);
    });
  }

  if (subject.name === 'docker') {

    it('publishes a custom service on a port of its host that follows the machine through a power cycle, refuses a taken port, and unpublishes it', async () => {
      const machine = spec({ gpuNum: 0, rootPassword: 'Service-Pw-1' });
      await driver.create(machine);
      const running = await until(machine.instanceId, 'running');
      const login = { host: running.ssh?.host ?? '', port: running.ssh?.port ?? 0, password: 'Service-Pw-1' };
      await sshReady(login);
      const serve = `echo from-${machine.instanceId} > /root/slg-data/hello.txt; setsid nohup python3 -m http.server 8080 --directory /root/slg-data >/dev/null 2>&1 < /dev/null & sleep 0.5; echo started`;
      expect(await sshRun(login, serve)).toBe('started');
      const publicPort = 23_000 + Math.floor(Math.random() * 1000);
      const hello = `http://127.0.0.1:${publicPort}/hello.txt`;

      await driver.exposePort(machine.instanceId, { port: 8080, protocol: 'http', publicPort });
      await driver.exposePort(machine.instanceId, { port: 8080, protocol: 'http', publicPort });
      expect(await fetchText(hello)).toBe(`from-${machine.instanceId}`);
      await expect(driver.exposePort(machine.instanceId, { port: 9090, protocol: 'tcp', publicPort })).rejects.toMatchObject({ message: `主机端口 ${publicPort} 已被占用`, retryable: false });

      await driver.stop(machine.instanceId);
      await until(machine.instanceId, 'stopped');
      await expect(fetch(hello, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
      await driver.start(machine.instanceId, 0, NO_MOUNTS);
      await until(machine.instanceId, 'running');
      await sshReady(login);
      expect(await sshRun(login, serve)).toBe('started');
      // The machine came back at an address the forwarder learns on the next observation.
      await driver.observe([machine.instanceId]);
      expect(await fetchText(hello)).toBe(`from-${machine.instanceId}`);
      const engine = new Docker({ socketPath: new URL(dockerHost ?? '').pathname });
      const [forwarder] = await engine.listContainers({ filters: { label: [`slg.io/instance-id=${machine.instanceId}`, 'slg.io/service-port=8080'] } });
      const address = (await engine.getContainer(machine.instanceId).inspect()).NetworkSettings.Networks;
      expect(Object.values(address).map((network) => network.IPAddress)).toContain(forwarder?.Labels['slg.io/target']);

      await driver.unexposePort(machine.instanceId, 8080);
      await driver.unexposePort(machine.instanceId, 8080);
      await expect(fetch(hello, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
      expect(await engine.listContainers({ all: true, filters: { label: [`slg.io/instance-id=${machine.instanceId}`, 'slg.io/service-port'] } })).toEqual([]);
    });
  }

  // Last: by now the driver has made every kind of call it makes.
  it.runIf(subject.where === ' (fake API server)')('needs no right beyond what deploy/kubernetes/rbac.yaml grants', () => {
    const rules = shippedRules(new URL('../../../../deploy/kubernetes/rbac.yaml', import.meta.url).pathname);
    const used = new Map<string, NonNullable<ReturnType<typeof permissionOf>>>();
    for (const request of prepared.requests?.() ?? []) {
      const permission = permissionOf(request.method, request.path);
      if (permission) used.set(`${permission.verb} ${permission.apiGroup}/${permission.resource}`, permission);
    }
    expect([...used.keys()]).toEqual(expect.arrayContaining(['patch apps/statefulsets', 'list batch/jobs', 'get /pods/exec', 'list /nodes', 'delete /persistentvolumeclaims']));
    expect([...used].filter(([, permission]) => !allowed(rules, permission)).map(([name]) => name)).toEqual([]);
  });
});

/**
 * 监控 on real machines: Debian's Prometheus scrapes the host exporter (`npm run exporter`) and the
 * platform's own /metrics, and the API's charts read it back through PROMETHEUS_URL. In this file so
 * the restart tests below never take the engine away from it.
 */
describe.runIf(dockerHost && (prometheusBinary || prometheusRequired))('on the Docker driver, 监控 reads Prometheus and 终端 opens a shell', () => {
  let test: TestApp;
  let prometheus: { stop: () => void } | undefined;
  let exporter: { close: () => Promise<void>; port: number } | undefined;
  let prometheusUrl = '';
  let platformUrl = '';
  let hostId = '';
  const made: string[] = [];
  const engine = () => new Docker({ socketPath: new URL(dockerHost ?? '').pathname });

  beforeAll(async () => {
    const port = prometheusPort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    test = await createTestApp({ env: { ...DOCKER_ENV, PROMETHEUS_URL: prometheusUrl } });
    test.clock.useRealTime();
    // Each test rents a machine of its own (the Jupyter test two): enough GPUs for all of them.
    hostId = await registerEngine(test, 8);
    const platform = new URL(await listenLocally(test));
    platformUrl = platform.origin;
    exporter = await serveExporter({ engineUrl: dockerHost ?? '', port: 0, host: '127.0.0.1', diskUsageTtlMs: 0 });
    prometheus = await startPrometheus(port, [
      { job: 'slg-hosts', target: `127.0.0.1:${exporter.port}` },
      { job: 'slg-platform', target: platform.host },
    ]);
  });
  afterAll(async () => {
    prometheus?.stop();
    await exporter?.close();
    for (const id of made) await test.deps.compute.driver.destroy(id).catch(() => undefined);
    await test?.close();
  });

  /** A user with a running instance on the engine, rented through the API. */
  async function rentRunning(): Promise<{ user: Awaited<ReturnType<typeof registerUser>>; instanceId: string }> {
    const { user, instanceId } = await rentOneGpu(test, hostId, 100_000);
    made.push(instanceId);
    await expectSoon(async () => {
      await new Reconciler(test.deps).tick();
      const [row] = await test.deps.database.db.select().from(instances).where(eq(instances.instanceId, instanceId));
      return row?.status === 'PoweredOn' && row.operation === null;
    }, 'instance running');
    return { user, instanceId };
  }

  it('opens a root shell of the instance over a WebSocket with a ticket only its owner gets, and refuses a forged one', async () => {
    const { user, instanceId } = await rentRunning();
    const stranger = await registerUser(test);
    expect((await call(test.app, { method: 'POST', url: '/api/v1/rental/terminal/ticket', token: stranger.jwtToken, payload: { instanceId } })).status).toBe(404);
    const issued = await call<{ ticket: string }>(test.app, { method: 'POST', url: '/api/v1/rental/terminal/ticket', token: user.jwtToken, payload: { instanceId } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);

    const url = `${platformUrl.replace('http', 'ws')}/api/v1/rental/terminal?cols=100&rows=30&ticket=${encodeURIComponent(issued.body.result.ticket)}`;
    const socket = new WebSocket(url);
    socket.binaryType = 'arraybuffer';
    let screen = '';
    socket.addEventListener('message', (event) => {
      if (event.data instanceof ArrayBuffer) screen += Buffer.from(event.data).toString('utf8');
    });
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve);
      socket.addEventListener('error', reject);
    });
    socket.send(new TextEncoder().encode('stty size; hostname; whoami\n'));
    await expectSoon(async () => screen.includes(`30 100\r\n${instanceId}\r\nroot\r\n`), 'the shell answering');
    socket.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    socket.send(new TextEncoder().encode('stty size; exit\n'));
    const closed = await new Promise<{ code: number }>((resolve) => socket.addEventListener('close', (event) => resolve({ code: event.code })));
    expect(closed.code).toBe(1000);
    expect(screen).toContain('40 120');

    const forged = new WebSocket(url.replace(/ticket=[^&]+/, 'ticket=forged'));
    const refusal = await new Promise<{ code: number; message: string }>((resolve) => {
      let message = '';
      forged.addEventListener('message', (event) => (message = typeof event.data === 'string' ? (JSON.parse(event.data) as { message: string }).message : message));
      forged.addEventListener('close', (event) => resolve({ code: event.code, message }));
    });
    expect(refusal).toEqual({ code: 4403, message: '终端链接已失效，请从控制台重新打开' });
  }, 120_000);

  it('opens Jupyter through the gateway with the session cookie only, HTTP and a kernel over WebSockets', async () => {
    const { user, instanceId } = await rentRunning();
    const base = `${platformUrl}/tools/${instanceId}/jupyter/`;
    expect((await fetch(`${base}api`)).status).toBe(403);
    const session = await test.app.inject({ method: 'POST', url: '/api/v1/rental/tools/session', headers: { authorization: `Bearer ${user.jwtToken}` }, payload: { instanceId } });
    expect(session.statusCode, session.body).toBe(200);
    const cookie = String(session.headers['set-cookie']).split(';')[0] ?? '';
    expect(String(session.headers['set-cookie'])).toContain(`Path=/tools/${instanceId}/; Max-Age=28800; HttpOnly; SameSite=Lax`);

    // Another account's cookie is for its own instance, and does not open this one.
    const stranger = await rentRunning();
    const theirs = await test.app.inject({ method: 'POST', url: '/api/v1/rental/tools/session', headers: { authorization: `Bearer ${stranger.user.jwtToken}` }, payload: { instanceId: stranger.instanceId } });
    const theirCookie = String(theirs.headers['set-cookie']).split(';')[0] ?? '';
    expect((await fetch(`${base}api`, { headers: { cookie: theirCookie } })).status).toBe(403);
    expect((await test.app.inject({ method: 'POST', url: '/api/v1/rental/tools/session', headers: { authorization: `Bearer ${stranger.user.jwtToken}` }, payload: { instanceId } })).statusCode).toBe(404);

    // Jupyter starts a few seconds after the machine.
    await expectSoon(async () => (await fetch(`${base}api`, { headers: { cookie } })).status === 200, 'Jupyter answering through the gateway');
    const tree = await fetch(`${base}tree`, { headers: { cookie } });
    expect(tree.status).toBe(200);
    const xsrf = /_xsrf=([^;]+)/.exec(tree.headers.getSetCookie().join(';'))?.[1] ?? '';
    const cookies = `${cookie}; _xsrf=${xsrf}`;
    const started = await fetch(`${base}api/kernels`, { method: "POST", headers: { cookie: cookies, "x-xsrftoken": xsrf, "content-type": "application/json" }, body: "{}" });
    const kernel = (await started.json()) as { id: string };
    expect(started.status, JSON.stringify(kernel) + xsrf).toBe(201);
    expect(kernel.id).toMatch(/^[0-9a-f-]{36}$/);

    const channel = new WsClient(`${platformUrl.replace('http', 'ws')}/tools/${instanceId}/jupyter/api/kernels/${kernel.id}/channels`, { headers: { cookie: cookies, origin: platformUrl } });
    const output = new Promise<string>((resolve, reject) => {
      channel.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { msg_type: string; content: { text?: string } };
        if (message.msg_type === 'stream' && message.content.text) resolve(message.content.text.trim());
      });
      channel.on('error', reject);
    });
    await new Promise((resolve, reject) => channel.on('open', resolve).on('error', reject));
    const msgId = crypto.randomUUID();
    channel.send(
      JSON.stringify({
        header: { msg_id: msgId, username: 'test', session: crypto.randomUUID(), msg_type: 'execute_request', version: '5.3', date: new Date().toISOString() },
        parent_header: {},
        metadata: {},
        content: { code: 'import socket; print(6 * 7, socket.gethostname())', silent: false, store_history: false, user_expressions: {}, allow_stdin: false, stop_on_error: true },
        channel: 'shell',
        buffers: [],
      }),
    );
    expect(await output).toBe(`42 ${instanceId}`);
    channel.close();
  }, 180_000);

  it('relays TensorBoard’s address to its port under its path prefix, and says how to start it where the image has none', async () => {
    const { user, instanceId } = await rentRunning();
    const base = `${platformUrl}/tools/${instanceId}/tensorboard/`;
    expect((await fetch(base)).status).toBe(403);
    const session = await call<{ jupyterUrl: string; tensorboardUrl: string }>(test.app, { method: 'POST', url: '/api/v1/rental/tools/session', token: user.jwtToken, payload: { instanceId } });
    expect(session.body.result.tensorboardUrl).toBe(`/tools/${instanceId}/tensorboard/`);
    const login = await test.app.inject({ method: 'POST', url: '/api/v1/rental/tools/session', headers: { authorization: `Bearer ${user.jwtToken}` }, payload: { instanceId } });
    const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';

    // Debian has no TensorBoard, so neither has the base image: the page names the command that starts it.
    const missing = await fetch(base, { headers: { cookie } });
    expect(missing.status).toBe(502);
    expect(await missing.text()).toContain(`TensorBoard 未运行：镜像带有 tensorboard 时，实例开机即自动启动并读取 /root/tf-logs 中的日志`);
    const container = engine().getContainer(instanceId);
    // The machine's init makes it before sshd starts, which may be just after the container runs.
    await expectSoon(async () => {
      const check = await container.exec({ Cmd: ['test', '-d', '/root/tf-logs'] });
      await check.start({ Detach: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
      return (await check.inspect()).ExitCode === 0;
    }, 'the log folder made at boot');

    // What an image with TensorBoard serves there, stood in for by a plain HTTP server on its port and prefix.
    const folder = `/tmp/tb/tools/${instanceId}/tensorboard`;
    const serve = await container.exec({
      Cmd: ['/bin/sh', '-c', `mkdir -p ${folder} && echo "scalars of $(hostname)" > ${folder}/index.html && exec python3 -m http.server 6006 --bind 127.0.0.1 --directory /tmp/tb`],
    });
    await serve.start({ Detach: true });
    await expectSoon(async () => (await (await fetch(base, { headers: { cookie } })).text()).trim() === `scalars of ${instanceId}`, 'the page on port 6006 through the gateway');
  }, 120_000);

  it('shows a machine’s CPU rising while `yes` runs in it, memory and disk as the engine reports them, and scrapes the platform', async () => {
    const { user, instanceId } = await rentRunning();

    const chart = async (metric: string) => {
      const end = Math.floor(Date.now() / 1000);
      const answer = await call<{ series: { name: string; points: [number, number][] }[] }>(test.app, {
        method: 'GET',
        url: `/api/v1/prometheus/query/metric?instanceId=${instanceId}&metric=${metric}&start=${end - 120}&end=${end}&step=15`,
        token: user.jwtToken,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return answer.body.result.series[0]?.points.at(-1)?.[1];
    };
    await expectSoon(async () => ((await chart('CPU')) ?? 100) < 20, 'an idle machine’s CPU low');
    const container = engine().getContainer(instanceId);
    const exec = await container.exec({ Cmd: ['/bin/sh', '-c', 'yes > /dev/null & dd if=/dev/zero of=/root/slg-data/blob bs=1M count=64 status=none; sleep 600'], AttachStdout: false, AttachStderr: false });
    await exec.start({ Detach: true });
    // One core of the instance's share is busy: its CPU chart rises well above idle.
    const cores = (await chart('CPU_COUNT')) ?? 1;
    await expectSoon(async () => ((await chart('CPU')) ?? 0) > (100 / cores) * 0.3, 'CPU rising under yes');

    const stats = (await container.stats({ stream: false })) as { memory_stats: { usage: number; stats: Record<string, number> } };
    const workingSetGb = (stats.memory_stats.usage - (stats.memory_stats.stats.inactive_file ?? stats.memory_stats.stats.total_inactive_file ?? 0)) / 1024 ** 3;
    await expectSoon(async () => Math.abs(((await chart('MEMORY')) ?? -1) - workingSetGb) < 0.05, 'memory as docker stats shows it');
    await expectSoon(async () => Math.abs(((await chart('PVC_USAGE')) ?? 0) - 64 / 1024) < 0.01, 'the data disk holding the 64 MB written');
    expect(await chart('PVC_CAPACITY')).toBe(50);

    const scraped = (await (await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent('sum(slg_http_request_duration_seconds_count{job="slg-platform"})')}`)).json()) as {
      data: { result: { value: [number, string] }[] };
    };
    expect(Number(scraped.data.result[0]?.value[1] ?? 0)).toBeGreaterThan(0);
  }, 240_000);
});

/**
 * Restarts on real machines: the platform's process dying between asking the engine for a machine and
 * recording it, and dockerd going away in the middle of a power-on. Run in this file, after the
 * contract, so no other test meets the engine while it is down.
 */
describe.runIf(dockerHost && dockerdControl)('on the Docker driver, the platform reconciles restarts', () => {
  let test: TestApp;
  let hostId: string;
  const made: string[] = [];
  const engine = () => new Docker({ socketPath: new URL(dockerHost ?? '').pathname });

  beforeAll(async () => {
    test = await createTestApp({ env: DOCKER_ENV });
    hostId = await registerEngine(test);
  });
  afterAll(async () => {
    execFileSync(dockerdControl ?? '', ['start']);
    for (const id of made) await test.deps.compute.driver.destroy(id).catch(() => undefined);
    await test?.close();
  });

  async function rowOf(instanceId: string) {
    const [row] = await test.deps.database.db.select().from(instances).where(eq(instances.instanceId, instanceId));
    if (!row) throw new Error(`no instance ${instanceId}`);
    return row;
  }

  /** Passes of a healthy process until the instance has no operation left (moving the clock past leases and backoff). */
  async function settle(instanceId: string): Promise<void> {
    for (let attempt = 0; attempt < 60 && (await rowOf(instanceId)).operation !== null; attempt += 1) {
      test.clock.advance(61);
      await new Reconciler(test.deps).tick();
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it('finishes a create whose process died after the engine made the machine, billed from when it came up, and powers on through a dockerd restart', async () => {
    const { user, instanceId } = await rentOneGpu(test, hostId, 10_000);
    made.push(instanceId);

    // The first process asks the engine for the machine, then dies before it records anything.
    const dying = { ...test.deps.compute.driver, observe: () => Promise.reject(new Error('the process died')) };
    const dyingDriver = Object.setPrototypeOf(dying, test.deps.compute.driver) as typeof test.deps.compute.driver;
    await expect(new Reconciler({ ...test.deps, compute: { ...test.deps.compute, driver: dyingDriver } }).tick()).rejects.toThrow('the process died');
    const [container] = await engine().listContainers({ filters: { label: [`slg.io/instance-id=${instanceId}`] } });
    expect(container?.State).toBe('running');
    expect((await rowOf(instanceId)).status).toBe('CreationStarted');

    await settle(instanceId);
    const running = await rowOf(instanceId);
    expect(running.status).toBe('PoweredOn');
    const startedAt = new Date((await engine().getContainer(container?.Id ?? '').inspect()).State.StartedAt);
    expect(running.runStartedAt?.getTime()).toBe(startedAt.getTime());

    const token = await loginToken(test, user.telephone);
    expect((await call(test.app, { method: 'POST', url: '/api/v1/rental/power_off', token, payload: { instanceId } })).status).toBe(200);
    await settle(instanceId);
    expect((await rowOf(instanceId)).status).toBe('PoweredOff');

    expect((await call(test.app, { method: 'POST', url: '/api/v1/rental/power_on', token, payload: { instanceId, mode: 'gpu' } })).status).toBe(200);
    execFileSync(dockerdControl ?? '', ['stop']);
    try {
      // The engine is gone: the power-on waits (retryable), the instance keeps its state.
      await new Reconciler(test.deps).tick();
      expect(await rowOf(instanceId)).toMatchObject({ status: 'PoweredOff', operation: 'power_on' });
    } finally {
      execFileSync(dockerdControl ?? '', ['start']);
    }
    await settle(instanceId);
    expect(await rowOf(instanceId)).toMatchObject({ status: 'PoweredOn', operation: null });
    const password = await call<{ password: string }>(test.app, { method: 'GET', url: `/api/v1/rental/password?instanceId=${instanceId}`, token });
    await sshReady({ host: '127.0.0.1', port: (await rowOf(instanceId)).sshPort ?? 0, password: password.body.result.password });
  });
});

/** A new user, recharged with `amountFen`, renting one GPU of the host pay-as-you-go through the API. */
async function rentOneGpu(test: TestApp, hostId: string, amountFen: number) {
  const user = await registerUser(test);
  await rechargeThroughSandbox(test, user.jwtToken, amountFen);
  const created = await call<{ instanceId: string }>(test.app, {
    method: 'POST',
    url: '/api/v1/rental',
    token: user.jwtToken,
    payload: { hostId, gpuNum: 1, imageId: 'pytorch-2.5.1-py3.12-cu124', chargingRuleId: 1 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { user, instanceId: created.body.result.instanceId };
}

/** The body at `url`, retried for a few seconds while a forwarder or the service behind it comes up. */
async function fetchText(url: string): Promise<string> {
  let last: unknown;
  for (let attempt = 0; attempt < 40; attempt += 1) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return (await response.text()).trim();
      last = new Error(`HTTP ${response.status}`);
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} never answered: ${String(last)}`);
}
