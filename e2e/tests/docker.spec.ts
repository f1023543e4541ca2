import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Docker from 'dockerode';
import { sshReady, sshRun } from '../../apps/server/test/ssh.js';
import { prometheusPort, startPrometheus } from '../../apps/server/test/prometheus.js';
import { E2E_JWT_SECRET, E2E_OPERATOR_PHONE, E2E_PORT } from '../playwright.config.js';
import { api, DEFAULT_PASSWORD, freshPhone, operatorToken, registerByApi, rentFirstHost, signInWithPassword, storedSession } from './fixtures.js';

/**
 * The platform on real machines: a second server with COMPUTE_DRIVER=docker on the engine CI starts
 * (SLG_TEST_DOCKER_HOST), rented from in Chromium and logged into over SSH, its 监控 read from Debian's
 * Prometheus scraping the host exporter (`npm run exporter`). Without an engine the
 * file is skipped, except where SLG_REQUIRE_DOCKER_TESTS says one must be there (CI).
 */
const engineUrl = process.env.SLG_TEST_DOCKER_HOST;
if (!engineUrl && process.env.SLG_REQUIRE_DOCKER_TESTS === '1') throw new Error('SLG_TEST_DOCKER_HOST 未设置：CI 必须在真实的 Docker 引擎上运行');
const DOCKER_PORT = E2E_PORT + 1;
const baseURL = `http://127.0.0.1:${DOCKER_PORT}`;

test.skip(!engineUrl, 'no Docker engine (SLG_TEST_DOCKER_HOST)');
test.use({ baseURL });

let server: ChildProcess | undefined;
let exporter: ChildProcess | undefined;
let prometheus: { stop: () => void } | undefined;
const EXPORTER_PORT = E2E_PORT + 2;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const prometheusAt = prometheusPort();
  // One process (tsx as a loader, not npx's child): killing it at the end leaves nothing listening.
  exporter = spawn(process.execPath, ['--import', 'tsx', '../apps/server/src/cli/exporter.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DOCKER_HOST: engineUrl, EXPORTER_PORT: String(EXPORTER_PORT), EXPORTER_HOST: '127.0.0.1' },
  });
  server = spawn('node', ['../scripts/start.mjs'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(DOCKER_PORT),
      DATA_DIR: mkdtempSync(join(tmpdir(), 'slg-e2e-docker-')),
      JWT_SECRET: E2E_JWT_SECRET,
      PUBLIC_URL: baseURL,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      DATABASE_URL: '',
      PAYMENT_PROVIDERS: 'sandbox',
      OPERATOR_TELEPHONES: E2E_OPERATOR_PHONE,
      SMS_SENDS_PER_CLIENT_PER_HOUR: '100000',
      HUMAN_CHECK_AFTER_CLIENT_SENDS_PER_HOUR: '100000',
      COMPUTE_DRIVER: 'docker',
      DOCKER_HOST: engineUrl,
      DOCKER_GPUS: '2',
      DOCKER_ZONE: 'bj-a',
      DOCKER_PUBLIC_ADDRESS: '127.0.0.1',
      DOCKER_SSH_PORTS: '27000-27999',
      PROMETHEUS_URL: `http://127.0.0.1:${prometheusAt}`,
    },
  });
  await expect.poll(async () => (await fetch(`${baseURL}/readyz`).catch(() => null))?.status ?? 0, { timeout: 170_000, intervals: [500] }).toBe(200);
  await expect.poll(async () => (await fetch(`http://127.0.0.1:${EXPORTER_PORT}/metrics`).catch(() => null))?.status ?? 0, { timeout: 60_000, intervals: [500] }).toBe(200);
  prometheus = await startPrometheus(prometheusAt, [
    { job: 'slg-hosts', target: `127.0.0.1:${EXPORTER_PORT}` },
    { job: 'slg-platform', target: `127.0.0.1:${DOCKER_PORT}` },
  ]);
});

test.afterAll(() => {
  prometheus?.stop();
  exporter?.kill('SIGTERM');
  server?.kill('SIGTERM');
});

interface InstanceView {
  instanceId: string;
  status: string;
  operation: string | null;
  sshCommand: string | null;
}

test('a real machine: recharge → 文件存储 initialised → rent 1 GPU → 运行中 → ssh with the password, the store at /root/slg-fs → Jupyter, TensorBoard and 终端 in the browser → 监控 from Prometheus → change it → power cycles, no-GPU mode and a GPU change keep the data → release removes container and volume', async ({ page, request, browser }) => {
  test.setTimeout(240_000);
  const telephone = freshPhone();
  await registerByApi(request, telephone);
  await page.goto('/login?redirect=%2Fctrl-cost-center%2Fcost-center%2Frecharge');
  await signInWithPassword(page, telephone, DEFAULT_PASSWORD);

  await test.step('recharge ¥100 in the sandbox gateway', async () => {
    await page.getByLabel('充值金额').fill('100');
    await page.getByRole('radio', { name: '微信支付' }).check();
    await page.getByRole('button', { name: '立即充值' }).click();
    const dialog = page.getByRole('dialog');
    const [gateway] = await Promise.all([page.waitForEvent('popup'), dialog.getByRole('link', { name: '在新窗口打开支付页' }).click()]);
    await gateway.getByRole('button', { name: '确认支付' }).click();
    await gateway.close();
    await expect(dialog.getByText('充值成功')).toBeVisible();
    await dialog.getByRole('button', { name: '完成' }).click();
  });

  await test.step("文件存储 of the host's region initialised, a file uploaded to it", async () => {
    const { token } = await storedSession(page);
    await api(request, token ?? '', 'post', '/storage/init', { zoneId: 'bj-a' });
    const uploaded = await request.put('/api/v1/storage/file?zoneId=bj-a&path=/shared/hello.txt', { headers: { Authorization: `Bearer ${token ?? ''}`, 'Content-Type': 'application/octet-stream' }, data: Buffer.from('from the console\n') });
    expect(uploaded.status()).toBe(200);
  });

  const dataset = `e2e-data-${Date.now().toString(36)}`;
  await test.step('a folder of it shared as a dataset and approved by the operator', async () => {
    const { token } = await storedSession(page);
    const uploaded = await request.put('/api/v1/storage/file?zoneId=bj-a&path=/to-share/sample.txt', { headers: { Authorization: `Bearer ${token ?? ''}`, 'Content-Type': 'application/octet-stream' }, data: Buffer.from('dataset bytes\n') });
    expect(uploaded.status()).toBe(200);
    const { id } = await api<{ id: number }>(request, token ?? '', 'post', '/share-data', { name: dataset, description: 'docker e2e', zoneId: 'bj-a', path: '/to-share' });
    await api(request, await operatorToken(request), 'post', `/admin/share-data/${id}/approve`);
  });

  await test.step('rent one GPU of the Docker host in 算力市场, the dataset chosen in 挂载数据集', async () => {
    await page.getByRole('navigation', { name: '控制台菜单' }).getByRole('link', { name: '算力市场' }).click();
    await page.getByRole('radiogroup', { name: 'GPU 数量' }).getByText('1 卡', { exact: true }).click();
    await rentFirstHost(page, 'docker-e2e', [dataset]);
  });

  const row = page.getByRole('row').filter({ hasText: 'docker-e2e' });
  await expect(row.getByText('运行中', { exact: true })).toBeVisible({ timeout: 60_000 });
  const { token } = await storedSession(page);
  const [instance] = (await api<{ list: InstanceView[] }>(request, token ?? '', 'get', '/rental?page=1&pageSize=10')).list;
  if (!instance?.sshCommand) throw new Error('no SSH command on the instance');
  const [, port = '0', host = ''] = /-p (\d+) root@(\S+)/.exec(instance.sshCommand) ?? [];
  const address = { host, port: Number(port) };
  const id = instance.instanceId;
  const passwordOf = async () => (await api<{ password: string }>(request, token ?? '', 'get', `/rental/password?instanceId=${id}`)).password;
  const settled = async (status: string) =>
    expect.poll(async () => {
      const view = await api<InstanceView>(request, token ?? '', 'get', `/rental/detail?instanceId=${id}`);
      return view.operation === null ? view.status : 'busy';
    }, { timeout: 60_000 }).toBe(status);

  await test.step('ssh -p PORT root@HOST takes the password GET /rental/password gives', async () => {
    const first = await passwordOf();
    await sshReady({ ...address, password: first });
    expect(await sshRun({ ...address, password: first }, 'echo precious > /root/slg-data/keep.txt && echo ok')).toBe('ok');
  });

  await test.step("the region's 文件存储 is at /root/slg-fs: the uploaded file is there, and what the machine writes shows in the API", async () => {
    const password = await passwordOf();
    expect(await sshRun({ ...address, password }, 'cat /root/slg-fs/shared/hello.txt')).toBe('from the console');
    expect(await sshRun({ ...address, password }, 'echo checkpoint > /root/slg-fs/shared/epoch-1.ckpt && echo ok')).toBe('ok');
    const listing = await api<{ items: { name: string; size: number }[] }>(request, token ?? '', 'get', '/storage/files?zoneId=bj-a&path=%2Fshared');
    expect(listing.items.map((item) => item.name)).toEqual(['epoch-1.ckpt', 'hello.txt']);
  });

  await test.step('the datasets are read-only under /root/slg-pub: the public ones and the one chosen', async () => {
    const password = await passwordOf();
    const mounted = (await sshRun({ ...address, password }, 'ls /root/slg-pub')).split(/\s+/);
    expect(mounted).toEqual(expect.arrayContaining(['gb2312-hanzi', 'iso3166-regions', 'primes-1e6', dataset]));
    expect(await sshRun({ ...address, password }, `cat /root/slg-pub/${dataset}/sample.txt`)).toBe('dataset bytes');
    expect(await sshRun({ ...address, password }, 'head -3 /root/slg-pub/primes-1e6/primes.txt | tr "\\n" " "')).toBe('2 3 5');
    expect(await sshRun({ ...address, password }, `touch /root/slg-pub/${dataset}/x 2>&1 || echo refused`)).toContain('refused');
  });

  await test.step('快捷工具 › Jupyter opens a notebook of the instance and runs a cell', async () => {
    await row.getByRole('button', { name: /快捷工具/ }).click();
    const [jupyter] = await Promise.all([page.waitForEvent('popup'), page.getByRole('menuitem', { name: 'Jupyter' }).click()]);
    await expect(jupyter).toHaveURL(new RegExp(`/tools/${id}/jupyter/`), { timeout: 30_000 });
    // Jupyter starts a few seconds after the machine: the gateway says so until then.
    await expect(async () => {
      await jupyter.reload();
      await expect(jupyter.locator('#notebook_list, #ipython-main-app').first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 60_000 });
    const notebook = await jupyter.evaluate(async (base) => {
      const xsrf = /_xsrf=([^;]+)/.exec(document.cookie)?.[1] ?? '';
      const response = await fetch(`${base}api/contents`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-xsrftoken': xsrf }, body: JSON.stringify({ type: 'notebook' }) });
      return ((await response.json()) as { path: string }).path;
    }, `/tools/${id}/jupyter/`);
    await jupyter.goto(`/tools/${id}/jupyter/notebooks/${notebook}`);
    await expect(jupyter.locator('#kernel_indicator_icon.kernel_idle_icon')).toBeAttached({ timeout: 60_000 });
    await jupyter.locator('.CodeMirror').first().click();
    await jupyter.keyboard.type('import socket; print(6 * 7, socket.gethostname())');
    await jupyter.keyboard.press('Shift+Enter');
    await expect(jupyter.locator('.output_area pre').first()).toHaveText(`42 ${id}`, { timeout: 30_000 });
    await jupyter.close();
  });

  await test.step('快捷工具 › TensorBoard opens its address, which says how to start it where the image has none', async () => {
    await row.getByRole('button', { name: /快捷工具/ }).click();
    const [tensorboard] = await Promise.all([page.waitForEvent('popup'), page.getByRole('menuitem', { name: 'TensorBoard' }).click()]);
    await expect(tensorboard).toHaveURL(new RegExp(`/tools/${id}/tensorboard/`), { timeout: 30_000 });
    await expect(tensorboard.getByText(`--path_prefix /tools/${id}/tensorboard`)).toBeVisible();
    await tensorboard.close();
  });

  await test.step('快捷工具 › 终端 runs hostname in the instance, also on a phone', async () => {
    await row.getByRole('button', { name: /快捷工具/ }).click();
    const [terminal] = await Promise.all([page.waitForEvent('popup'), page.getByRole('menuitem', { name: '终端' }).click()]);
    await terminal.setViewportSize({ width: 390, height: 844 });
    await expect(terminal.getByText('已连接')).toBeVisible({ timeout: 30_000 });
    await terminal.getByTestId('terminal-screen').click();
    await terminal.keyboard.type('hostname\n');
    await expect(terminal.locator('.xterm-rows')).toContainText(id, { timeout: 15_000 });
    expect(await terminal.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await terminal.keyboard.type('exit\n');
    await expect(terminal.getByText('会话已结束')).toBeVisible();
    await terminal.close();
  });

  await test.step('监控 shows the machine’s CPU rising while `yes` runs in it, read from Prometheus', async () => {
    const now = Math.floor(Date.now() / 1000);
    const coreChart = await api<{ series: { points: [number, number][] }[] }>(request, token ?? '', 'get', `/prometheus/query/metric?instanceId=${id}&metric=CPU_COUNT&start=${now - 300}&end=${now}&step=15`);
    const cores = coreChart.series[0]?.points.at(-1)?.[1] ?? 0;
    expect(cores).toBeGreaterThan(0);
    await row.getByRole('link', { name: '监控' }).click();
    await expect(page).toHaveURL(new RegExp(`/instance-monitoring\\?instanceId=${id}`));
    const cpuNow = page.locator('.slg-monitor-card').filter({ hasText: 'CPU 利用率' }).locator('.slg-monitor-latest');
    const cpuPercent = async () => {
      await page.reload();
      // No latest value until Prometheus holds two samples of the new machine: NaN, and the poll asks again.
      return Number(/当前 ([\d.]+)%/.exec((await cpuNow.textContent({ timeout: 15_000 }).catch(() => '')) ?? '')?.[1] ?? Number.NaN);
    };
    await expect.poll(cpuPercent, { timeout: 60_000, intervals: [3_000] }).toBeLessThan(100 / cores / 2);
    expect(await sshRun({ ...address, password: await passwordOf() }, 'nohup yes > /dev/null 2>&1 & echo started')).toBe('started');
    // One core of the instance's share busy: the chart climbs as Prometheus's one-minute rate takes it in.
    await expect.poll(cpuPercent, { timeout: 120_000, intervals: [5_000] }).toBeGreaterThan(100 / cores / 2);
    expect(await sshRun({ ...address, password: await passwordOf() }, 'pkill yes; echo stopped')).toBe('stopped');
    await page.goBack();
    await expect(row.getByText('运行中', { exact: true })).toBeVisible();
  });

  await test.step('another account gets 403 from the instance’s Jupyter and no terminal', async () => {
    const otherPhone = freshPhone();
    await registerByApi(request, otherPhone);
    const context = await browser.newContext({ baseURL });
    const other = await context.newPage();
    await other.goto('/login');
    await signInWithPassword(other, otherPhone, DEFAULT_PASSWORD);
    await expect(other).not.toHaveURL(/\/login/);
    const answer = await other.goto(`/tools/${id}/jupyter/`);
    expect(answer?.status()).toBe(403);
    await other.goto(`/ctrl-container-instances/terminal?instanceId=${id}`);
    await expect(other.getByRole('alert').getByText('服务器资源不存在')).toBeVisible();
    await expect(other.getByText('已连接')).toHaveCount(0);
    await context.close();
  });

  const changed = 'Changed-Pw-2026';
  await test.step('a changed password works and the old one is refused, also after power off / on', async () => {
    const old = await passwordOf();
    await api(request, token ?? '', 'post', '/rental/update_pwd', { instanceId: id, password: changed });
    await expect(sshRun({ ...address, password: old }, 'true')).rejects.toThrow(/authentication/i);
    expect(await sshRun({ ...address, password: changed }, 'cat /root/slg-data/keep.txt')).toBe('precious');
  });

  await test.step('自定义服务: a web server in the machine answers at the address map_port gives', async () => {
    await sshRun({ ...address, password: changed }, 'setsid nohup python3 -m http.server 6006 --directory /root/slg-data >/dev/null 2>&1 < /dev/null & sleep 0.5');
    const service = await api<{ address: string }>(request, token ?? '', 'post', '/rental/map_port', { instanceId: id, port: 6006, protocol: 1 });
    expect(service.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect.poll(async () => (await fetch(`${service.address}/keep.txt`).then((response) => response.text()).catch(() => '')).trim(), { timeout: 20_000 }).toBe('precious');
  });

  for (const [label, act] of [
    ['power off / on', async () => api(request, token ?? '', 'post', '/rental/power_on', { instanceId: id, mode: 'gpu' })],
    ['no-GPU mode', async () => api(request, token ?? '', 'post', '/rental/power_on', { instanceId: id, mode: 'nogpu' })],
    [
      'a GPU count change',
      async () => {
        await api(request, token ?? '', 'post', '/rental/change_gpu_num', { instanceId: id, gpuNum: 2 });
        return api(request, token ?? '', 'post', '/rental/power_on', { instanceId: id, mode: 'gpu' });
      },
    ],
  ] as const) {
    await test.step(`the file on /root/slg-data and the password survive ${label}`, async () => {
      await api(request, token ?? '', 'post', '/rental/power_off', { instanceId: id });
      await settled('PoweredOff');
      await act();
      await settled(label === 'no-GPU mode' ? 'PoweredOnNoGPU' : 'PoweredOn');
      await sshReady({ ...address, password: changed });
      expect(await sshRun({ ...address, password: changed }, 'cat /root/slg-data/keep.txt; nproc >/dev/null')).toBe('precious');
    });
  }

  await test.step('release removes the container and the volume', async () => {
    await api(request, token ?? '', 'post', '/rental/power_off', { instanceId: id });
    await settled('PoweredOff');
    await api(request, token ?? '', 'delete', `/rental?instanceId=${id}`);
    const engine = new Docker({ socketPath: new URL(engineUrl ?? '').pathname });
    await expect
      .poll(async () => {
        const containers = await engine.listContainers({ all: true, filters: { label: [`slg.io/instance-id=${id}`] } });
        const volumes = (await engine.listVolumes({ filters: { label: [`slg.io/instance-id=${id}`] } })).Volumes ?? [];
        return containers.length + volumes.length;
      }, { timeout: 60_000 })
      .toBe(0);
  });
});
