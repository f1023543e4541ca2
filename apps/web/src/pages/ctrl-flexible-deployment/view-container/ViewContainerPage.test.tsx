/** 查看容器: the summary, the waiting banner, live containers with SSH / password / 日志 / 释放, ended ones, events. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, renderPage } from '../../ctrl-cost-center/testing';
import { CONTAINER, DEPLOYMENT, ENDED_CONTAINER, GPUS, ZONES } from '../testing';
import ViewContainerPage from './index';

afterEach(() => cleanup());

const UID = DEPLOYMENT.deploymentUid;
const ENTRY = `/x?deploymentUid=${UID}`;
const EVENTS = [
  { type: 'WAITING', detail: '1 个容器等待资源：所选GPU型号当前没有空闲 1 卡 GPU 的主机', createdAt: '2026-06-01T02:02:00Z' },
  { type: 'PLACED', detail: '调度 2 个容器到主机 北京A区-4090-01', createdAt: '2026-06-01T02:00:05Z' },
];

function routes(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /elastic/detail': () => ok(DEPLOYMENT),
    [`GET /elastic/${UID}/instances`]: (url) => page(url.searchParams.get('released') === 'true' ? [ENDED_CONTAINER] : [CONTAINER]),
    [`GET /elastic/${UID}/events`]: () => ok(EVENTS),
    'GET /meta/zone': () => ok(ZONES),
    'GET /meta/gpu': () => ok(GPUS),
    ...extra,
  });
}

function named(label: string): HTMLButtonElement {
  const element = document.querySelector<HTMLButtonElement>(`[aria-label="${label}"]`);
  if (!element) throw new Error(`nothing labelled ${label}`);
  return element;
}

describe('查看容器', () => {
  it('summarises the deployment, says why containers wait, lists live containers and the events', async () => {
    routes();
    renderPage(<ViewContainerPage />, ENTRY);
    expect(await screen.findByText('python serve.py')).toBeTruthy();
    const summary = screen.getByText('部署信息').closest('.ant-card') as HTMLElement;
    expect(within(summary).getByText('运行中')).toBeTruthy();
    expect(within(summary).getByText('2/3 运行中')).toBeTruthy();
    expect(within(summary).getByText('PyTorch 2.5.1')).toBeTruthy();
    expect(within(summary).getByText('MODEL')).toBeTruthy();
    expect(within(summary).getByText('8000/http')).toBeTruthy();
    expect(within(summary).getByText('¥3.60/时')).toBeTruthy();
    expect(await within(summary).findByText('地区：北京A区')).toBeTruthy();
    expect(screen.getByText('1 个容器正在等待调度')).toBeTruthy();
    expect(screen.getAllByText(DEPLOYMENT.waitingReason as string).length).toBeGreaterThan(0);

    const row = (await screen.findByText(CONTAINER.instanceId)).closest('tr') as HTMLElement;
    expect(within(row).getByText('运行中')).toBeTruthy();
    expect(within(row).getByText('RTX 4090 × 1')).toBeTruthy();
    expect(within(row).getByText('北京A区 · 北京A区-4090-01')).toBeTruthy();
    expect(within(row).getByText('1小时2分')).toBeTruthy();
    expect(within(row).getByText('¥1.86')).toBeTruthy();
    expect(within(row).getByText('时长包抵扣 10分')).toBeTruthy();
    expect(within(row).getByText(CONTAINER.sshCommand as string)).toBeTruthy();
    expect(within(row).getByText(CONTAINER.ports[0]?.address ?? '')).toBeTruthy();

    expect(await screen.findByText('调度 2 个容器到主机 北京A区-4090-01')).toBeTruthy();
    expect(screen.getByText(EVENTS[0]?.detail as string)).toBeTruthy();
  });

  it('shows the region’s 文件存储 beside the host: mounted at /root/slg-fs, or that this container runs without it (issue 22)', async () => {
    const needsRestart = { ...CONTAINER, instanceId: 'slg-cccccccccc', fileStorage: 'restartNeeded' as const };
    routes({ [`GET /elastic/${UID}/instances`]: () => page([{ ...CONTAINER, fileStorage: 'mounted' }, needsRestart]) });
    renderPage(<ViewContainerPage />, ENTRY);
    const mounted = (await screen.findByText(CONTAINER.instanceId)).closest('tr') as HTMLElement;
    expect(within(mounted).getByText('文件存储 /root/slg-fs')).toBeTruthy();
    const other = screen.getByText(needsRestart.instanceId).closest('tr') as HTMLElement;
    expect(within(other).getByText('文件存储需重启后挂载')).toBeTruthy();
  });

  it('shows the root password on 查看密码, the logs in a drawer with 刷新', async () => {
    let logs = 0;
    const api = routes({
      'GET /elastic/instance/password': () => ok({ password: 'Xk9#pQ2m' }),
      'GET /elastic/instance/logs': () => {
        logs += 1;
        return ok({ text: logs === 1 ? 'loading model…\nserving on :8000' : 'serving on :8000\nGET / 200' });
      },
    });
    renderPage(<ViewContainerPage />, ENTRY);
    await screen.findByText(CONTAINER.instanceId);
    fireEvent.click(named(`查看容器 ${CONTAINER.instanceId} 的 root 密码`));
    expect(await screen.findByText('Xk9#pQ2m')).toBeTruthy();
    expect(new URL(String(callsTo(api.fetchMock, 'GET', '/elastic/instance/password')[0]?.[0]), 'http://localhost').searchParams.get('instanceId')).toBe(CONTAINER.instanceId);

    fireEvent.click(named(`查看容器 ${CONTAINER.instanceId} 的日志`));
    expect(await screen.findByText(/serving on :8000/, { selector: 'pre' })).toBeTruthy();
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/elastic/instance/logs')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('lines')).toBe('200');
    fireEvent.click(buttonByText('刷新'));
    expect(await screen.findByText(/GET \/ 200/, { selector: 'pre' })).toBeTruthy();
  });

  it('asks before 释放, saying the replica set places another container', async () => {
    const api = routes({ 'DELETE /elastic/instance': () => ok(null) });
    renderPage(<ViewContainerPage />, ENTRY);
    await screen.findByText(CONTAINER.instanceId);
    fireEvent.click(named(`释放容器 ${CONTAINER.instanceId}`));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('磁盘数据立即删除');
    expect(dialog.textContent).toContain('保持 3 个容器运行');
    fireEvent.click(buttonByText('释放容器', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/elastic/instance')).toHaveLength(1));
    expect(new URL(String(callsTo(api.fetchMock, 'DELETE', '/elastic/instance')[0]?.[0]), 'http://localhost').searchParams.get('instanceId')).toBe(CONTAINER.instanceId);
  });

  it('lists ended containers with why they ended and their exit code', async () => {
    routes();
    renderPage(<ViewContainerPage />, ENTRY);
    await screen.findByText(CONTAINER.instanceId);
    fireEvent.click(screen.getByText('已结束的容器'));
    const row = (await screen.findByText(ENDED_CONTAINER.instanceId)).closest('tr') as HTMLElement;
    expect(within(row).getByText('命令异常退出（退出码 1）')).toBeTruthy();
    expect(within(row).getByText('退出码 1')).toBeTruthy();
    expect(within(row).queryByText('释放')).toBeNull();
  });

  it('says so without a deployment in the link, or when the deployment is gone', async () => {
    mockApi({});
    renderPage(<ViewContainerPage />, '/x');
    expect(await screen.findByText('请先在部署列表选择部署')).toBeTruthy();
    cleanup();
    routes({ 'GET /elastic/detail': () => failure(404, 40400, '部署不存在') });
    renderPage(<ViewContainerPage />, ENTRY);
    expect(await screen.findByText('部署不存在或已删除')).toBeTruthy();
  });
});
