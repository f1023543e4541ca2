import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Docker from 'dockerode';
import { sshReady, sshRun } from '../../apps/server/test/ssh.js';
import { FakeKubeApiServer, type KubeObject } from '../../apps/server/test/kube-apiserver.js';
import { startRegistry } from '../../apps/server/test/registry.js';
import { E2E_JWT_SECRET, E2E_PORT } from '../playwright.config.js';
import { api, DEFAULT_PASSWORD, freshPhone, registerByApi, rentFirstHost, signInWithPassword, storedSession } from './fixtures.js';

/**
 * The platform on the Kubernetes driver: a server with COMPUTE_DRIVER=kubernetes whose KUBECONFIG
 * points at the fake API server of apps/server/test/kube-apiserver.ts (a TEST DOUBLE: no kube-apiserver
 * runs here), whose kubelet runs the pods as real containers on CI's engine; saved images go to
 * Debian's docker-registry. Skipped without an engine, except where SLG_REQUIRE_DOCKER_TESTS says one
 * must be there (CI).
 */
const engineUrl = process.env.SLG_TEST_DOCKER_HOST;
if (!engineUrl && process.env.SLG_REQUIRE_DOCKER_TESTS === '1') throw new Error('SLG_TEST_DOCKER_HOST 未设置：CI 必须在真实的 Docker 引擎上运行');
const PORT = E2E_PORT + 3;
const baseURL = `http://127.0.0.1:${PORT}`;
const NAMESPACE = `slg-e2e-${process.pid}`;
const NODE = 'k8s-gpu-01';

test.skip(!engineUrl, 'no Docker engine (SLG_TEST_DOCKER_HOST)');
test.use({ baseURL });

let server: ChildProcess | undefined;
let cluster: FakeKubeApiServer | undefined;
let registry: { address: string; stop: () => void } | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  cluster = new FakeKubeApiServer({
    docker: new Docker({ socketPath: new URL(engineUrl ?? '').pathname }),
    namespace: NAMESPACE,
    nodes: [{ name: NODE, labels: { 'slg.io/zone': 'bj-a', 'slg.io/gpu-model': 'rtx4090' }, allocatable: { cpu: '16', memory: '64Gi', gpus: 2 }, ready: 'True' }],
    allowVolumeExpansion: true,
    nodePorts: { min: 28_000, max: 28_999 },
  });
  const url = await cluster.start();
  registry = await startRegistry();
  const directory = mkdtempSync(join(tmpdir(), 'slg-e2e-k8s-'));
  const kubeconfig = join(directory, 'kubeconfig');
  writeFileSync(kubeconfig, cluster.kubeConfig(url).exportConfig());
  server = spawn('node', ['../scripts/start.mjs'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: join(directory, 'data'),
      JWT_SECRET: E2E_JWT_SECRET,
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      DATABASE_URL: '',
      PAYMENT_PROVIDERS: 'sandbox',
      SMS_SENDS_PER_CLIENT_PER_HOUR: '100000',
      HUMAN_CHECK_AFTER_CLIENT_SENDS_PER_HOUR: '100000',
      COMPUTE_DRIVER: 'kubernetes',
      KUBECONFIG: kubeconfig,
      K8S_NAMESPACE: NAMESPACE,
      K8S_NODE_PORTS: '28000-28999',
      REGISTRY_URL: registry.address,
    },
  });
  await expect.poll(async () => (await fetch(`${baseURL}/readyz`).catch(() => null))?.status ?? 0, { timeout: 170_000, intervals: [500] }).toBe(200);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await cluster?.close();
  registry?.stop();
});

/** What the cluster holds of an instance, by kind. */
function objectsOf(instanceId: string): { statefulsets: KubeObject[]; services: KubeObject[]; claims: KubeObject[]; pods: KubeObject[] } {
  const mine = (kind: Parameters<FakeKubeApiServer['stored']>[0]) => cluster?.stored(kind).filter((object) => object.metadata.labels?.['slg.io/instance-id'] === instanceId) ?? [];
  return { statefulsets: mine('statefulsets'), services: mine('services'), claims: mine('persistentvolumeclaims'), pods: mine('pods') };
}

test('on Kubernetes: the node is a host on the market → rent it → 运行中 → ssh with the password → power off sets replicas 0 and keeps the disks → power on → extend the data disk through its claim → release deletes every object', async ({ page, request }) => {
  test.setTimeout(240_000);
  const telephone = freshPhone();
  const session = await registerByApi(request, telephone);
  const recharge = await api<{ rechargeId: string }>(request, session.jwtToken, 'post', '/payment/recharge', { amount: 50_000, channel: 'WXPAY' });
  expect((await request.post(`/sandbox-pay/${recharge.rechargeId}/pay`)).ok()).toBe(true);
  await page.goto('/login?redirect=%2Fcomputility-market');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);

  await test.step('the labelled node is on 算力市场 and rents like any host', async () => {
    await expect(page.getByText(NODE).first()).toBeVisible({ timeout: 30_000 });
    await rentFirstHost(page, 'k8s-e2e');
  });

  const row = page.getByRole('row').filter({ hasText: 'k8s-e2e' });
  // The first start seeds the system disk from the image: give it a minute and a half.
  await expect(row.getByText('运行中', { exact: true })).toBeVisible({ timeout: 90_000 });
  const token = (await storedSession(page)).token ?? '';
  const [instance] = (await api<{ list: { instanceId: string; sshCommand: string | null }[] }>(request, token, 'get', '/rental?page=1&pageSize=10')).list;
  if (!instance?.sshCommand) throw new Error('no SSH command on the instance');
  const id = instance.instanceId;
  const [, port = '0', host = ''] = /-p (\d+) root@(\S+)/.exec(instance.sshCommand) ?? [];
  const { password } = await api<{ password: string }>(request, token, 'get', `/rental/password?instanceId=${id}`);
  const login = { host, port: Number(port), password };
  const settled = async (status: string) =>
    expect
      .poll(async () => {
        const view = await api<{ status: string; operation: string | null }>(request, token, 'get', `/rental/detail?instanceId=${id}`);
        return view.operation === null ? view.status : 'busy';
      }, { timeout: 90_000 })
      .toBe(status);

  await test.step('ssh -p NODEPORT root@NODE takes the password; the pod is the StatefulSet’s', async () => {
    await sshReady(login);
    expect(await sshRun(login, 'echo precious > /root/slg-data/keep.txt && echo tool > /opt/tool.txt && hostname')).toBe(`${id}-0`);
    expect(objectsOf(id).statefulsets[0]?.spec?.replicas).toBe(1);
  });

  await test.step('power off: replicas 0, no pod, both claims kept', async () => {
    await page.reload();
    await row.getByRole('button', { name: '关机' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '立即关机' }).click();
    await expect(row.getByText('已关机', { exact: true })).toBeVisible({ timeout: 60_000 });
    const objects = objectsOf(id);
    expect(objects.statefulsets[0]?.spec?.replicas).toBe(0);
    expect(objects.pods).toEqual([]);
    expect(objects.claims.map((claim) => claim.metadata.labels?.['slg.io/disk']).sort()).toEqual(['data', 'system']);
  });

  await test.step('power on: the data disk and what was installed are there', async () => {
    await api(request, token, 'post', '/rental/power_on', { instanceId: id, mode: 'gpu' });
    await expect(row.getByText('运行中', { exact: true })).toBeVisible({ timeout: 60_000 });
    await sshReady(login);
    expect(await sshRun(login, 'cat /root/slg-data/keep.txt /opt/tool.txt')).toBe('precious\ntool');
  });

  await test.step('extend the data disk: its claim asks for the new size', async () => {
    await api(request, token, 'post', '/rental/extend_disk', { instanceId: id, sizeGb: 80 });
    await expect
      .poll(() => (objectsOf(id).claims.find((claim) => claim.metadata.labels?.['slg.io/disk'] === 'data')?.spec?.resources as { requests?: { storage?: string } } | undefined)?.requests?.storage, { timeout: 30_000 })
      .toBe('80Gi');
  });

  await test.step('release deletes the StatefulSet, the Service and both claims', async () => {
    await api(request, token, 'post', '/rental/power_off', { instanceId: id });
    await settled('PoweredOff');
    await api(request, token, 'delete', `/rental?instanceId=${id}`);
    await expect.poll(() => Object.values(objectsOf(id)).flat().length, { timeout: 60_000 }).toBe(0);
  });
});
