import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { insertHost } from '../../../test/factories.js';
import { FakeKubeApiServer, type FakeNode } from '../../../test/kube-apiserver.js';
import { machineShape, putMachines } from '../../../test/kube-fleet.js';
import { eq, inArray } from 'drizzle-orm';
import { hosts } from '../../db/schema/index.js';
import { DEFAULT_BASE_IMAGE, DEFAULT_IMAGE_BUILDER } from '../../config.js';
import { commandExitOf, KubernetesDriver, podFailure } from './driver.js';
import { claimOf, copyJobOf, KUBERNETES_COMMAND_INIT, KUBERNETES_MACHINE_INIT, saveImageJobOf, secretOf, serviceOf, statefulSetOf, type MachineShape } from './manifests.js';
import type { KubeObject } from '../../../test/kube-apiserver.js';
import type { IStatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';

const NAMESPACE = 'slg-unit';
const shape = (overrides: Partial<MachineShape> = {}): MachineShape => machineShape({ instanceId: 'slg-k8sunit01', hostId: 'gpu-node-1', namespace: NAMESPACE, ...overrides });

describe('Kubernetes manifests', () => {
  it('pins the machine to its node, asks for its GPUs with requests equal to limits, and tolerates an unreachable node', () => {
    const set = statefulSetOf(shape());
    const pod = set.spec?.template.spec;
    const container = pod?.containers[0];
    expect(set.metadata?.labels).toEqual({ 'slg.io/instance-id': 'slg-k8sunit01' });
    expect(pod?.nodeSelector).toEqual({ 'kubernetes.io/hostname': 'gpu-node-1' });
    expect(container?.resources).toEqual({ requests: { cpu: '32', memory: '180Gi', 'nvidia.com/gpu': '2' }, limits: { cpu: '32', memory: '180Gi', 'nvidia.com/gpu': '2' } });
    expect(pod?.tolerations?.map((toleration) => [toleration.key, toleration.tolerationSeconds])).toEqual([
      ['node.kubernetes.io/unreachable', undefined],
      ['node.kubernetes.io/not-ready', undefined],
    ]);
    expect(pod?.volumes?.find((volume) => volume.name === 'data')?.persistentVolumeClaim?.claimName).toBe('slg-k8sunit01-data');
    expect(container?.env?.find((variable) => variable.name === 'NVIDIA_VISIBLE_DEVICES')).toBeUndefined();
  });

  it('runs no-GPU mode on 2 cores and 4 GiB without a GPU limit, and hides the node’s GPUs from the runtime', () => {
    const container = statefulSetOf(shape({ gpuNum: 0 })).spec?.template.spec?.containers[0];
    expect(container?.resources?.limits).toEqual({ cpu: '2', memory: '4Gi' });
    expect(container?.env).toContainEqual({ name: 'NVIDIA_VISIBLE_DEVICES', value: 'void' });
  });

  it('refuses a manifest the Kubernetes schema does not accept before it is sent', () => {
    expect(() => statefulSetOf(shape({ replicas: 0.5 as 1 }))).toThrow(/replicas must be integer/);
    expect(() => serviceOf('slg-k8sunit01', NAMESPACE, 'NodePort', { port: 22, nodePort: 30_022.5 }, [])).toThrow(/nodePort must be integer/);
    expect(claimOf('slg-k8sunit01', NAMESPACE, { kind: 'data', sizeGb: 80 }, 'local-path').spec).toMatchObject({ storageClassName: 'local-path', resources: { requests: { storage: '80Gi' } } });
    expect(secretOf('slg-k8sunit01', NAMESPACE, 'Pw-1', ['ssh-ed25519 AAAA a@b']).stringData).toEqual({ password: 'Pw-1', authorized_keys: 'ssh-ed25519 AAAA a@b\n' });
  });

  it('keeps the system disk on a claim: seeded from the image once, its directories mounted over the image’s, a clone seeded from its source', () => {
    const pod = statefulSetOf(shape({ systemClaim: 'slg-k8sunit01-system-abc' })).spec?.template.spec;
    expect(pod?.volumes?.find((volume) => volume.name === 'system')?.persistentVolumeClaim?.claimName).toBe('slg-k8sunit01-system-abc');
    expect(pod?.containers[0]?.volumeMounts?.filter((mount) => mount.name === 'system').map((mount) => [mount.mountPath, mount.subPath])).toContainEqual(['/usr', 'usr']);
    const seed = pod?.initContainers?.[0];
    expect(seed?.image).toBe('registry.example.com/pytorch:2.5.1');
    expect(seed?.command?.[2]).toContain('cp -a /usr /slg-system/');
    const clone = statefulSetOf(shape({ cloneFrom: { instanceId: 'slg-k8sunit00', systemClaim: 'slg-k8sunit00-system', copyData: true } })).spec?.template.spec;
    expect(clone?.initContainers?.[0]?.command?.[2]).toContain('cp -a /slg-clone-data/. /root/slg-data/');
    expect(clone?.volumes?.map((volume) => volume.persistentVolumeClaim?.claimName)).toEqual(expect.arrayContaining(['slg-k8sunit00-system', 'slg-k8sunit00-data']));
    expect(claimOf('slg-k8sunit01', NAMESPACE, { kind: 'system', name: 'slg-k8sunit01-system' }, undefined).spec?.resources?.requests?.storage).toBe('30Gi');
  });

  it('mounts the 文件存储 at /root/slg-fs as its sub-path of the ReadWriteMany claim in the machine container, nothing without one', () => {
    const pod = statefulSetOf(shape({ fileStorage: { claim: 'slg-file-storage', key: '12/bj-a' } })).spec?.template.spec;
    expect(pod?.volumes?.find((volume) => volume.name === 'file-storage')?.persistentVolumeClaim).toEqual({ claimName: 'slg-file-storage' });
    expect(pod?.containers[0]?.volumeMounts?.find((mount) => mount.name === 'file-storage')).toEqual({ name: 'file-storage', mountPath: '/root/slg-fs', subPath: '12/bj-a' });
    expect(pod?.initContainers?.[0]?.volumeMounts?.map((mount) => mount.name)).not.toContain('file-storage');
    expect(statefulSetOf(shape()).spec?.template.spec?.volumes?.map((volume) => volume.name)).not.toContain('file-storage');
  });

  it('mounts datasets read-only under /root/slg-pub as sub-paths of the same claim, with or without a store', () => {
    const datasets = { claim: 'slg-file-storage', mounts: [{ name: 'gb2312-hanzi', source: '.public/gb2312-hanzi' }, { name: 'mine', source: '.datasets/0b3c' }] };
    for (const fileStorage of [null, { claim: 'slg-file-storage', key: '12/bj-a' }]) {
      const pod = statefulSetOf(shape({ fileStorage, datasets })).spec?.template.spec;
      expect(pod?.volumes?.filter((volume) => volume.name === 'file-storage').map((volume) => volume.persistentVolumeClaim)).toEqual([{ claimName: 'slg-file-storage' }]);
      expect(pod?.containers[0]?.volumeMounts?.filter((mount) => mount.mountPath.startsWith('/root/slg-pub/'))).toEqual([
        { name: 'file-storage', mountPath: '/root/slg-pub/gb2312-hanzi', subPath: '.public/gb2312-hanzi', readOnly: true },
        { name: 'file-storage', mountPath: '/root/slg-pub/mine', subPath: '.datasets/0b3c', readOnly: true },
      ]);
    }
  });

  it('saves an image with a kaniko Job on the machine’s node, and copies data with a Job on the target’s', () => {
    const save = saveImageJobOf({ namespace: NAMESPACE, hostId: 'gpu-node-1', imageUid: '0b3c', machineImage: 'base:1', systemClaim: 'slg-k8sunit01-system', destination: 'registry.example.com/slg-private:0b3c', builderImage: DEFAULT_IMAGE_BUILDER, insecureRegistry: false });
    expect(save.spec?.template.spec?.nodeSelector).toEqual({ 'kubernetes.io/hostname': 'gpu-node-1' });
    expect(save.spec?.template.spec?.containers[0]?.args).toContain('--destination=registry.example.com/slg-private:0b3c');
    expect(save.metadata?.labels).toEqual({ 'slg.io/image-uid': '0b3c' });
    const copy = copyJobOf({ taskUid: 't1', namespace: NAMESPACE, hostId: 'gpu-node-2', fromInstanceId: 'a', toInstanceId: 'b', relative: '/models', helperImage: 'base:1' });
    expect(copy.spec?.template.spec?.volumes?.map((volume) => volume.persistentVolumeClaim?.claimName)).toEqual(['a-data', 'b-data']);
    expect(copy.spec?.template.spec?.containers[0]?.command?.[2]).toContain('cp -a "/from/models" "/to/models"');
  });

  it('runs a command machine’s command once per run, passing command and environment as variables the user cannot override', () => {
    const plain = statefulSetOf(shape()).spec?.template.spec?.containers[0];
    expect(plain?.command?.[2]).toBe(KUBERNETES_MACHINE_INIT);
    expect(plain?.env?.map((variable) => variable.name)).toEqual(['SLG_INSTANCE_ID', 'SLG_ROOT_PASSWORD']);

    const job = statefulSetOf(shape({ command: 'python train.py', env: { LR: "0.1 'x'", SLG_COMMAND: 'rm -rf /', NVIDIA_VISIBLE_DEVICES: 'all' }, run: 1234, gpuNum: 0 })).spec?.template.spec?.containers[0];
    expect(job?.command?.[2]).toBe(KUBERNETES_COMMAND_INIT);
    expect(KUBERNETES_COMMAND_INIT).not.toContain('python train.py');
    expect(job?.env).toEqual(
      expect.arrayContaining([
        { name: 'LR', value: "0.1 'x'" },
        { name: 'SLG_PROFILE', value: "export LR='0.1 '\\''x'\\'''" },
        { name: 'SLG_COMMAND', value: 'python train.py' },
        { name: 'SLG_RUN', value: '1234' },
        { name: 'SLG_POD_UID', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
        { name: 'NVIDIA_VISIBLE_DEVICES', value: 'void' },
      ]),
    );
    expect(job?.env?.filter((variable) => variable.name === 'SLG_COMMAND' || variable.name === 'NVIDIA_VISIBLE_DEVICES')).toHaveLength(2);
  });

  it('reads how a command machine’s command ended from its container’s termination message, before or after the kubelet restarted it', () => {
    const pod = (status: object) => ({ apiVersion: 'v1' as const, kind: 'Pod' as const, metadata: { name: 'x-0' }, status: { phase: 'Running' as const, containerStatuses: [{ name: 'machine', image: 'x', imageID: '', ready: false, restartCount: 1, ...status }] } });
    const ended = (code: number, message = `slg-command-exited ${code}`) => ({ terminated: { exitCode: code, message } });
    expect(commandExitOf(pod({ state: ended(3) }))).toBe(3);
    expect(commandExitOf(pod({ state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: ended(0) }))).toBe(0);
    expect(commandExitOf(pod({ state: { running: {} }, lastState: ended(137) }))).toBe(137);
    expect(commandExitOf(pod({ state: { running: {} } }))).toBeNull();
    // sshd of a plain machine that ended: no command's exit.
    expect(commandExitOf(pod({ state: { terminated: { exitCode: 255 } } }))).toBeNull();
  });

  it('says in Chinese why a pod does not run', () => {
    const pod = (status: object) => ({ apiVersion: 'v1' as const, kind: 'Pod' as const, metadata: { name: 'x-0' }, status });
    expect(podFailure(pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 1 Insufficient nvidia.com/gpu.' }] }))).toBe(
      '主机上空闲的 GPU 不足，无法启动实例',
    );
    expect(podFailure(pod({ phase: 'Pending', containerStatuses: [{ name: 'machine', image: 'x', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff', message: 'Back-off pulling image "x"' } } }] }))).toBe(
      '镜像拉取失败：Back-off pulling image "x"',
    );
    expect(podFailure(pod({ phase: 'Running' }))).toBeNull();
  });
});

describe('the Kubernetes driver against the fake API server (objects only)', () => {
  let test: TestApp;
  let cluster: FakeKubeApiServer;
  let driver: KubernetesDriver;
  let hostId = '';
  let url = '';

  beforeAll(async () => {
    test = await createTestApp();
    hostId = await insertHost(test, 'bj-a-4090-01');
    cluster = new FakeKubeApiServer({
      namespace: NAMESPACE,
      nodes: [{ name: hostId, labels: {}, allocatable: { cpu: '64', memory: '512Gi', gpus: 8 }, ready: 'True' }],
      allowVolumeExpansion: false,
      nodePorts: { min: 30_000, max: 32_767 },
      kubelet: false,
    });
    url = await cluster.start();
    driver = new KubernetesDriver({ db: test.deps.database.db, kubeConfig: cluster.kubeConfig(url), namespace: NAMESPACE, serviceType: 'NodePort', nodePorts: { min: 30_000, max: 32_767 }, baseImage: DEFAULT_BASE_IMAGE, builderImage: DEFAULT_IMAGE_BUILDER });
  });
  afterAll(async () => {
    await cluster.close();
    await test.close();
  });

  // Its time is measured by `npm run bench -- kubernetes-observe`, not here.
  it('observes 1,000 machines with one list call per kind', async () => {
    const ids = putMachines(cluster, { namespace: NAMESPACE, hostId, count: 1000, prefix: 'slg-perf' });
    await driver.observe(ids.slice(0, 1));
    cluster.requests.length = 0;
    const seen = await driver.observe(ids);

    expect(seen.get(ids[0] ?? '')).toMatchObject({ state: 'running', gpuNum: 2, ssh: { host: '127.0.0.1', port: 30_000 } });
    expect(seen.get(ids[1] ?? '')).toEqual({ state: 'stopped', image: 'pytorch-2.5.1-py3.12-cu124' });
    const lists = cluster.requests.map((request) => request.path.split('?')[0]);
    expect(lists.sort()).toEqual(
      [
        `/api/v1/namespaces/${NAMESPACE}/persistentvolumeclaims`,
        `/api/v1/namespaces/${NAMESPACE}/pods`,
        `/api/v1/namespaces/${NAMESPACE}/services`,
        `/api/v1/nodes`,
        `/apis/apps/v1/namespaces/${NAMESPACE}/statefulsets`,
      ].sort(),
    );
  });

  it('makes hosts of the nodes labelled with a zone and a GPU model, sized from what they can allocate, and keeps the operator’s word', async () => {
    const gpuNode = (name: string, labels: Record<string, string>): FakeNode => ({ name, labels, allocatable: { cpu: '128', memory: '1000Gi', gpus: 8 }, ready: 'True' });
    const nodes = new FakeKubeApiServer({
      namespace: 'slg-nodes',
      nodes: [
        gpuNode('gpu-a-01', { 'slg.io/zone': 'bj-a', 'slg.io/gpu-model': 'rtx4090', 'nvidia.com/cuda.runtime.major': '12', 'nvidia.com/cuda.runtime.minor': '8', 'nvidia.com/cuda.driver.major': '570', 'nvidia.com/cuda.driver.minor': '124', 'nvidia.com/cuda.driver.rev': '06' }),
        gpuNode('gpu-a-02', { 'slg.io/zone': 'bj-a', 'slg.io/gpu-model': 'rtx4090', 'slg.io/enabled': 'false' }),
        gpuNode('gpu-x-01', { 'slg.io/zone': 'mars-1', 'slg.io/gpu-model': 'rtx4090' }),
        gpuNode('cpu-only', {}),
      ],
      allowVolumeExpansion: true,
      nodePorts: { min: 30_000, max: 32_767 },
      kubelet: false,
    });
    const nodesUrl = await nodes.start();
    const nodesDriver = new KubernetesDriver({ db: test.deps.database.db, kubeConfig: nodes.kubeConfig(nodesUrl), namespace: 'slg-nodes', serviceType: 'NodePort', nodePorts: { min: 30_000, max: 32_767 }, baseImage: DEFAULT_BASE_IMAGE, builderImage: DEFAULT_IMAGE_BUILDER });
    try {
      expect(await nodesDriver.syncHosts()).toMatchObject({ registered: ['gpu-a-01', 'gpu-a-02'], skipped: [{ node: 'gpu-x-01', reason: '标签 slg.io/zone=mars-1 不是已有的地区' }] });
      // The simulated fleet's hosts are no nodes of this cluster: off the market.
      expect((await test.deps.database.db.select({ enabled: hosts.enabled }).from(hosts).where(eq(hosts.id, hostId)))[0]?.enabled).toBe(false);
      const rows = await test.deps.database.db.select().from(hosts).where(inArray(hosts.id, ['gpu-a-01', 'gpu-a-02', 'cpu-only']));
      expect(rows.map((row) => [row.id, row.enabled, row.gpuTotal, row.cpuPerGpu, row.memoryGbPerGpu, row.cudaVersion, row.driverVersion, row.publicAddress]).sort()).toEqual([
        ['gpu-a-01', true, 8, 16, 125, '12.8', '570.124.06', '127.0.0.1'],
        ['gpu-a-02', false, 8, 16, 125, expect.any(String), '-', '127.0.0.1'],
      ]);
      // The operator takes gpu-a-01 off the market: a later sync leaves it off.
      await test.deps.database.db.update(hosts).set({ enabled: false }).where(eq(hosts.id, 'gpu-a-01'));
      await nodesDriver.syncHosts();
      expect((await test.deps.database.db.select({ enabled: hosts.enabled }).from(hosts).where(eq(hosts.id, 'gpu-a-01')))[0]?.enabled).toBe(false);
    } finally {
      await nodes.close();
    }
  });

  it('puts the 文件存储 and the datasets into the pod template at the start of a stopped machine, leaves a started one’s pod alone, and mounts none without a claim', async () => {
    const options = { db: test.deps.database.db, kubeConfig: cluster.kubeConfig(url), namespace: NAMESPACE, serviceType: 'NodePort' as const, nodePorts: { min: 30_000, max: 32_767 }, baseImage: DEFAULT_BASE_IMAGE, builderImage: DEFAULT_IMAGE_BUILDER };
    const withClaim = new KubernetesDriver({ ...options, storageClaim: 'slg-file-storage' });
    const instanceId = 'slg-fsunit0001';
    const store = () => {
      const set = cluster.stored('statefulsets').find((object) => object.metadata.name === instanceId) as unknown as IStatefulSet | undefined;
      return set?.spec?.template.spec?.containers[0]?.volumeMounts?.find((mount) => mount.mountPath === '/root/slg-fs')?.subPath ?? null;
    };
    const mounted = () => {
      const set = cluster.stored('statefulsets').find((object) => object.metadata.name === instanceId) as unknown as IStatefulSet | undefined;
      return (set?.spec?.template.spec?.containers[0]?.volumeMounts ?? []).filter((mount) => mount.mountPath.startsWith('/root/slg-pub/')).map((mount) => [mount.mountPath, mount.subPath, mount.readOnly]);
    };
    await withClaim.create({ instanceId, hostId, gpuNum: 0, imageId: 'pytorch-2.5.1-py3.12-cu124', cpuCores: 1, memoryGb: 1, dataDiskGb: 50, rootPassword: 'Pw-1', authorizedKeys: [], fileStorage: null });
    expect(store()).toBeNull();
    // Started already (a repeated start): its pod is left alone.
    await withClaim.start(instanceId, 0, { fileStorage: '12/bj-a', datasets: [] });
    expect(store()).toBeNull();
    await withClaim.stop(instanceId);
    await withClaim.start(instanceId, 0, { fileStorage: '12/bj-a', datasets: [] });
    expect(store()).toBe('12/bj-a');
    await withClaim.stop(instanceId);
    await withClaim.start(instanceId, 0, { fileStorage: null, datasets: [{ name: 'gb2312-hanzi', source: '.public/gb2312-hanzi' }] });
    expect(store()).toBeNull();
    expect(mounted()).toEqual([['/root/slg-pub/gb2312-hanzi', '.public/gb2312-hanzi', true]]);
    await withClaim.stop(instanceId);
    await driver.start(instanceId, 0, { fileStorage: '12/bj-a', datasets: [{ name: 'gb2312-hanzi', source: '.public/gb2312-hanzi' }] });
    expect(store()).toBeNull();
    expect(mounted()).toEqual([]);
    expect([withClaim.mountsFileStorage, driver.mountsFileStorage]).toEqual([true, false]);
  });

  it('reports a machine on a node that is NotReady or stopped answering as unreachable, and refuses to grow a disk its storage class cannot', async () => {
    const instanceId = 'slg-perf00000';
    for (const ready of ['Unknown', 'False'] as const) {
      cluster.setNodeReady(hostId, ready);
      expect((await driver.observe([instanceId])).get(instanceId)).toMatchObject({ state: 'unreachable', reason: `实例所在的主机（节点 ${hostId}）失去联系` });
    }
    cluster.setNodeReady(hostId, 'True');
    expect((await driver.observe([instanceId])).get(instanceId)).toMatchObject({ state: 'running' });
    await expect(driver.resizeDataDisk(instanceId, 80)).rejects.toMatchObject({ message: '数据盘所在的存储类不支持扩容，请联系平台管理员', retryable: false });
    await expect(driver.resizeDataDisk(instanceId, 40)).rejects.toMatchObject({ retryable: false });
  });

  it('reports a command machine whose command ended as stopped with its exit code while the kubelet backs off, and a pod of the run before as starting', async () => {
    const [instanceId = ''] = putMachines(cluster, { namespace: NAMESPACE, hostId, count: 1, prefix: 'slg-cmd' });
    const machine = machineShape({ instanceId, hostId, namespace: NAMESPACE, command: 'exit 3', run: 2 });
    const set = statefulSetOf(machine) as KubeObject;
    set.metadata.annotations = { 'slg.io/shape': JSON.stringify(machine) };
    const podOf = (run: number, status: object): KubeObject => {
      const spec = (statefulSetOf({ ...machine, run }).spec?.template.spec ?? {}) as Record<string, unknown>;
      return { apiVersion: 'v1', kind: 'Pod', metadata: { name: `${instanceId}-0`, labels: { 'slg.io/instance-id': instanceId } }, spec, status: { phase: 'Running', ...status } };
    };
    const crashLoop = { containerStatuses: [{ name: 'machine', ready: false, restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 3, message: 'slg-command-exited 3' } } }] };
    cluster.put(set, podOf(2, crashLoop));
    expect((await driver.observe([instanceId])).get(instanceId)).toEqual({ state: 'stopped', exitCode: 3, image: machine.imageId });
    cluster.put(podOf(1, crashLoop));
    expect((await driver.observe([instanceId])).get(instanceId)).toMatchObject({ state: 'starting' });
  });
});
