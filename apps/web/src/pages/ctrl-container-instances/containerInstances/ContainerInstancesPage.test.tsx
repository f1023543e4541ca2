/** 实例列表: status labels, password on request, power on/off and release with what they do said first. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INSTANCES_FAST_POLL_MS, INSTANCES_SLOW_POLL_MS, instancesPollInterval, type InstanceView } from '../../../api/compute';
import { queryKeys } from '../../../api/queryKeys';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, pending, renderPage, testQueryClient } from '../../ctrl-cost-center/testing';
import ContainerInstancesPage from './index';
import { canDo } from './instanceRules';
import { RUNNING_INSTANCE } from '../testing';

afterEach(() => cleanup());

const BASE: InstanceView = RUNNING_INSTANCE;

const RUNNING = BASE;
const CREATING: InstanceView = { ...BASE, instanceId: 'slg-bbbbbbbbbb', rentalId: 2, name: '新实例', status: 'CreationStarted', operation: 'create', sshCommand: null };
const STOPPED: InstanceView = {
  ...BASE,
  instanceId: 'slg-cccccccccc',
  rentalId: 3,
  name: '欠费机',
  status: 'PoweredOff',
  statusReason: '账户余额不足，已自动关机',
  sshCommand: null,
  poweredOffAt: '2025-01-02T00:00:00Z',
  releaseAt: '2025-01-17T00:00:00Z',
};

function rowOf(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'strong' }).closest('tr') as HTMLElement;
}

describe('实例列表', () => {
  it('shows each status with its Chinese label, a spinner while changing, and why the platform stopped one', async () => {
    mockApi({ 'GET /rental': () => page([RUNNING, CREATING, STOPPED]) });
    renderPage(<ContainerInstancesPage />, '/x');
    expect(await screen.findByText('训练机')).toBeTruthy();
    expect(within(rowOf('训练机')).getByText('运行中')).toBeTruthy();
    const creating = within(rowOf('新实例')).getByText('创建中').closest('.ant-tag') as HTMLElement;
    expect(creating.querySelector('.anticon-spin')).toBeTruthy();
    const stopped = rowOf('欠费机');
    expect(within(stopped).getByText('已关机')).toBeTruthy();
    expect(within(stopped).getByText('账户余额不足，已自动关机')).toBeTruthy();
    expect(within(stopped).getByText(/^将于 2025-01-17 .+ 自动释放$/)).toBeTruthy();
    // Region, GPU model × count, billing and price, SSH command.
    const running = rowOf('训练机');
    expect(within(running).getByText(/北京A区 · RTX 4090 × 2/)).toBeTruthy();
    expect(within(running).getByText('按量计费')).toBeTruthy();
    expect(within(running).getByText('¥3.96/时')).toBeTruthy();
    expect(within(running).getByText('ssh -p 32101 root@bj-a.connect.example.com')).toBeTruthy();
  });

  it('shows a stopped instance whose last run was in 无卡模式 with what 开机 starts with, and the last mode apart (issue 17)', async () => {
    // What the server says of it: the GPU configuration and price 开机 starts with, the last run's mode apart.
    const lastNoGpu: InstanceView = { ...STOPPED, statusReason: null, gpuMode: 'gpu', lastRunMode: 'nogpu', priceFen: 396, cpuCores: 32, memoryGb: 128 };
    mockApi({ 'GET /rental': () => page([lastNoGpu]) });
    renderPage(<ContainerInstancesPage />, '/x');
    expect(await screen.findByText('欠费机')).toBeTruthy();
    const row = rowOf('欠费机');
    expect(within(row).getByText(/北京A区 · RTX 4090 × 2/)).toBeTruthy();
    expect(within(row).queryByText(/（无卡模式）/)).toBeNull();
    expect(within(row).getByText(/^32 核 · 128GB 内存/)).toBeTruthy();
    expect(within(row).getByText('¥3.96/时')).toBeTruthy();
    expect(within(row).getByText('上次以无卡模式运行')).toBeTruthy();
  });

  it('shows the region’s 文件存储 where the data disk is: mounted at /root/slg-fs, or 需重启后挂载 with why; nothing without one (issue 22)', async () => {
    const mounted: InstanceView = { ...RUNNING, fileStorage: 'mounted' };
    const needsRestart: InstanceView = { ...STOPPED, fileStorage: 'restartNeeded' };
    const without: InstanceView = { ...CREATING, fileStorage: 'none' };
    mockApi({ 'GET /rental': () => page([mounted, needsRestart, without]) });
    renderPage(<ContainerInstancesPage />, '/x');
    expect(await screen.findByText('训练机')).toBeTruthy();
    expect(within(rowOf('训练机')).getByText('文件存储 /root/slg-fs')).toBeTruthy();
    const warning = within(rowOf('欠费机')).getByText('文件存储需重启后挂载');
    expect(warning.closest('.ant-tag')?.className).toContain('warning');
    fireEvent.mouseEnter(warning);
    expect(await screen.findByText('文件存储在实例开机后才初始化，关机再开机后即挂载到 /root/slg-fs')).toBeTruthy();
    expect(within(rowOf('新实例')).queryByText(/文件存储/)).toBeNull();
  });

  it('sends the status filter and the name search, and offers the market when there is nothing', async () => {
    const api = mockApi({ 'GET /rental': () => page([]) });
    renderPage(<ContainerInstancesPage />, '/x?status=PoweredOff&name=训练&page=2');
    expect(await screen.findByText('没有符合条件的实例')).toBeTruthy();
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/rental')[0]?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ page: '2', pageSize: '10', status: 'PoweredOff', name: '训练' });
    cleanup();

    mockApi({ 'GET /rental': () => page([]) });
    renderPage(<ContainerInstancesPage />, '/x');
    expect(await screen.findByText('还没有实例，去算力市场挑一台 GPU 主机吧')).toBeTruthy();
    expect(screen.getByText('去算力市场').closest('a')?.getAttribute('href')).toBe('/computility-market');
    expect(screen.getByText('创建实例').closest('a')?.getAttribute('href')).toBe('/computility-market');
  });

  it('keeps the root password hidden until 查看 asks the server for it', async () => {
    const api = mockApi({ 'GET /rental': () => page([RUNNING]), 'GET /rental/password': () => ok({ password: 'Secret123x' }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('训练机');
    expect(screen.queryByText('Secret123x')).toBeNull();
    expect(callsTo(api.fetchMock, 'GET', '/rental/password')).toHaveLength(0);
    fireEvent.click(buttonByText('查看'));
    expect(await screen.findByText('Secret123x')).toBeTruthy();
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/rental/password')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('instanceId')).toBe(RUNNING.instanceId);
    fireEvent.click(buttonByText('隐藏'));
    expect(screen.queryByText('Secret123x')).toBeNull();
  });

  it('checks a new root password against the rule before 修改密码 sends it', async () => {
    const api = mockApi({ 'GET /rental': () => page([RUNNING]), 'POST /rental/update_pwd': () => ok(null) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('训练机');
    fireEvent.click(buttonByText('修改密码'));
    const dialog = await findDialog();
    fireEvent.change(within(dialog).getByLabelText('新密码'), { target: { value: 'short' } });
    fireEvent.change(within(dialog).getByLabelText('确认新密码'), { target: { value: 'short' } });
    fireEvent.click(buttonByText('修改密码', dialog));
    expect(await within(dialog).findAllByText('密码为8-30位，须同时包含字母和数字，可使用 !@#$%^&*()_+-=.,? 等符号')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/rental/update_pwd')).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('新密码'), { target: { value: 'Better2026x' } });
    fireEvent.change(within(dialog).getByLabelText('确认新密码'), { target: { value: 'Better2026x' } });
    fireEvent.click(buttonByText('修改密码', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental/update_pwd')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/update_pwd')[0]?.[1]?.body))).toEqual({ instanceId: RUNNING.instanceId, password: 'Better2026x' });
  });

  it('shows the new root password after 查看 and then 修改密码, without a reload (issue 17)', async () => {
    let stored = 'Secret123x';
    const api = mockApi({
      'GET /rental': () => page([RUNNING]),
      'GET /rental/password': () => ok({ password: stored }),
      'POST /rental/update_pwd': (_url, init) => {
        stored = (JSON.parse(String(init?.body)) as { password: string }).password;
        return ok(null);
      },
    });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('训练机');
    fireEvent.click(buttonByText('查看'));
    expect(await screen.findByText('Secret123x')).toBeTruthy();
    fireEvent.click(buttonByText('修改密码'));
    const dialog = await findDialog();
    fireEvent.change(within(dialog).getByLabelText('新密码'), { target: { value: 'Better2026x' } });
    fireEvent.change(within(dialog).getByLabelText('确认新密码'), { target: { value: 'Better2026x' } });
    fireEvent.click(buttonByText('修改密码', dialog));
    expect(await screen.findByText('Better2026x', { selector: '.slg-instance-mono, .slg-instance-mono *' })).toBeTruthy();
    expect(screen.queryByText('Secret123x')).toBeNull();
    // Hidden and shown again: read from the server once more, never from a stale copy.
    fireEvent.click(buttonByText('隐藏'));
    expect(screen.queryByText('Better2026x', { selector: '.slg-instance-mono, .slg-instance-mono *' })).toBeNull();
    fireEvent.click(buttonByText('查看'));
    expect(await screen.findByText('Better2026x', { selector: '.slg-instance-mono, .slg-instance-mono *' })).toBeTruthy();
    expect(callsTo(api.fetchMock, 'GET', '/rental/password')).toHaveLength(2);
  });

  it('asks before 关机 and says the GPUs are released', async () => {
    const api = mockApi({ 'GET /rental': () => page([RUNNING]), 'POST /rental/power_off': () => ok({ ...RUNNING, operation: 'power_off' }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('训练机');
    fireEvent.click(buttonByText('关机'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('关机后停止计费，GPU 将被释放，再次开机可能因 GPU 不足无法使用有卡模式');
    expect(callsTo(api.fetchMock, 'POST', '/rental/power_off')).toHaveLength(0);
    fireEvent.click(buttonByText('立即关机', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental/power_off')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/power_off')[0]?.[1]?.body))).toEqual({ instanceId: RUNNING.instanceId });
  });

  it('offers 定时关机 in the 关机 dialog itself (issue 17)', async () => {
    const api = mockApi({ 'GET /rental': () => page([RUNNING]), 'POST /rental/power_off': () => ok({ ...RUNNING, scheduledPowerOffAt: '2030-01-01T14:00:00Z' }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('训练机');
    fireEvent.click(buttonByText('关机'));
    const dialog = await findDialog();
    fireEvent.click(within(dialog).getByText('定时关机'));
    const at = dayjs().add(1, 'day').hour(22).minute(0).second(0).millisecond(0);
    fireEvent.change(within(dialog).getByLabelText('关机时间'), { target: { value: at.format('YYYY-MM-DDTHH:mm') } });
    fireEvent.click(buttonByText(`定时关机 ${at.format('YYYY-MM-DD HH:mm')}`, dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental/power_off')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/power_off')[0]?.[1]?.body))).toEqual({ instanceId: RUNNING.instanceId, at: at.toISOString() });
  });

  it('powers on in one step: 开机 opens the dialog with each mode and its price, whose confirm sends it (issue 17)', async () => {
    const api = mockApi({ 'GET /rental': () => page([{ ...STOPPED, statusReason: null }]), 'POST /rental/power_on': () => ok({ ...STOPPED, operation: 'power_on' }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('欠费机');
    fireEvent.click(buttonByText('开机'));
    // No menu to choose from first: the dialog is the one step.
    const dialog = await findDialog();
    expect(document.querySelector('[role="menu"]')).toBeNull();
    expect(dialog.textContent).toContain('RTX 4090 × 2，¥3.96/时');
    expect(dialog.textContent).toContain('¥0.10/时');
    expect((within(dialog).getByLabelText(/^有卡开机/, { selector: 'input' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(buttonByText('有卡开机', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental/power_on')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/rental/power_on')[0]?.[1]?.body))).toEqual({ instanceId: STOPPED.instanceId, mode: 'gpu' });
  });

  it('refreshes the header balance while an instance runs and after 关机', async () => {
    mockApi({ 'GET /rental': () => page([RUNNING]), 'POST /rental/power_off': () => ok({ ...RUNNING, operation: 'power_off' }) });
    const queryClient = testQueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const balanceRefreshes = () => invalidate.mock.calls.filter(([filters]) => filters?.queryKey === queryKeys.balance).length;
    renderPage(<ContainerInstancesPage />, '/x', queryClient);
    await screen.findByText('训练机');
    await waitFor(() => expect(balanceRefreshes()).toBe(1));
    fireEvent.click(buttonByText('关机'));
    fireEvent.click(buttonByText('立即关机', await findDialog()));
    await waitFor(() => expect(balanceRefreshes()).toBeGreaterThan(1));
  });

  it('names the data lost before 释放 and releases only once the user ticked it', async () => {
    const api = mockApi({ 'GET /rental': () => page([STOPPED]), 'DELETE /rental': () => ok(null) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('欠费机');
    fireEvent.click(buttonByText('释放'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('系统盘与数据盘的数据将被删除且无法恢复');
    const confirm = buttonByText('释放', dialog);
    expect(confirm.disabled).toBe(true);
    fireEvent.click(dialog.querySelector('input[type="checkbox"]') as HTMLInputElement);
    expect(confirm.disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/rental')).toHaveLength(1));
    const url = new URL(String(callsTo(api.fetchMock, 'DELETE', '/rental')[0]?.[0]), 'http://localhost');
    expect(Object.fromEntries(url.searchParams)).toEqual({ instanceId: STOPPED.instanceId, rentalId: '3' });
  });

  it('offers 释放 of a running instance only after 关机', async () => {
    mockApi({ 'GET /rental': () => page([RUNNING]) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('训练机');
    expect(buttonByText('释放').disabled).toBe(true);
    expect(screen.queryByText('开机')).toBeNull();
  });

  it('on 主机GPU不足 says so in the power-on dialog, once, and powers on in 无卡模式 from there', async () => {
    let calls = 0;
    const api = mockApi({
      'GET /rental': () => page([{ ...STOPPED, statusReason: null }]),
      'POST /rental/power_on': () => {
        calls += 1;
        return calls === 1
          ? failure(409, 40940, '主机GPU不足：该主机当前空闲 0 卡，需要 2 卡。可以选择无卡模式开机（¥0.10/时）先使用数据，或稍后再试')
          : ok({ ...STOPPED, operation: 'power_on' });
      },
    });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('欠费机');
    fireEvent.click(buttonByText('开机'));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('RTX 4090 × 2，¥3.96/时');
    expect(dialog.textContent).toContain('¥0.10/时');
    fireEvent.click(buttonByText('有卡开机', dialog));

    expect(await within(dialog).findByText(/该主机当前空闲 0 卡/)).toBeTruthy();
    expect((within(dialog).getByLabelText(/^无卡模式开机/, { selector: 'input' }) as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByLabelText(/^有卡开机/, { selector: 'input' }) as HTMLInputElement).disabled).toBe(true);
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();

    fireEvent.click(buttonByText('无卡模式开机', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/rental/power_on')).toHaveLength(2));
    const bodies = callsTo(api.fetchMock, 'POST', '/rental/power_on').map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    expect(bodies).toEqual([
      { instanceId: STOPPED.instanceId, mode: 'gpu' },
      { instanceId: STOPPED.instanceId, mode: 'nogpu' },
    ]);
  });

  it('renames in place with PUT /rental/name', async () => {
    const api = mockApi({ 'GET /rental': () => page([RUNNING]), 'PUT /rental/name': () => ok({ ...RUNNING, name: '推理机' }) });
    renderPage(<ContainerInstancesPage />, '/x');
    await screen.findByText('训练机');
    fireEvent.click(document.querySelector('button[aria-label="修改名称"]') as HTMLButtonElement);
    const box = screen.getByLabelText('实例名称', { selector: 'input:not([type="search"])' });
    fireEvent.change(box, { target: { value: '推理机' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(callsTo(api.fetchMock, 'PUT', '/rental/name')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'PUT', '/rental/name')[0]?.[1]?.body))).toEqual({ instanceId: RUNNING.instanceId, name: '推理机' });
  });

  it('shows loading and error (with 重试) states', async () => {
    mockApi({ 'GET /rental': pending });
    const { container } = renderPage(<ContainerInstancesPage />, '/x');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();
    mockApi({ 'GET /rental': () => failure(500, 50000, '数据库连接失败') });
    renderPage(<ContainerInstancesPage />, '/x');
    expect(await screen.findByText('实例列表加载失败')).toBeTruthy();
    expect(buttonByText('重试')).toBeTruthy();
  });
});

describe('live list and actions by state', () => {
  it('polls fast while an instance is changing state, slowly otherwise', () => {
    const pageOf = (list: InstanceView[]) => ({ list, total: list.length, page: 1, pageSize: 10 });
    expect(instancesPollInterval(pageOf([RUNNING, STOPPED]))).toBe(INSTANCES_SLOW_POLL_MS);
    expect(instancesPollInterval(pageOf([RUNNING, CREATING]))).toBe(INSTANCES_FAST_POLL_MS);
    expect(instancesPollInterval(pageOf([{ ...RUNNING, operation: 'power_off' }]))).toBe(INSTANCES_FAST_POLL_MS);
    expect(instancesPollInterval(pageOf([{ ...STOPPED, status: 'DestroyStarted', operation: null }]))).toBe(INSTANCES_FAST_POLL_MS);
    expect(INSTANCES_FAST_POLL_MS).toBeLessThanOrEqual(3000);
  });

  it('follow the server state machine', () => {
    expect(canDo(RUNNING, 'power_off')).toBe(true);
    expect(canDo(RUNNING, 'release')).toBe(false);
    expect(canDo(STOPPED, 'power_on')).toBe(true);
    expect(canDo(STOPPED, 'update_pwd')).toBe(false);
    expect(canDo({ ...STOPPED, operation: 'power_on' }, 'power_on')).toBe(false);
    expect(canDo(CREATING, 'rename')).toBe(true);
    expect(canDo(CREATING, 'power_off')).toBe(false);
  });
});
