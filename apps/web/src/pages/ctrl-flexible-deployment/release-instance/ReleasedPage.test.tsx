/** 已释放实例: ended containers with where they ran, how long, what they cost and why they ended; kept 30 days. */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { failure, mockApi, page, renderPage } from '../../ctrl-cost-center/testing';
import { ENDED_CONTAINER } from '../testing';
import ReleasedInstancesPage from './index';

afterEach(() => cleanup());

describe('已释放实例', () => {
  it('lists ended containers with deployment, GPU, zone, times, run time, cost, pack seconds, end reason and exit code', async () => {
    mockApi({ 'GET /elastic/released': () => page([{ ...ENDED_CONTAINER, packSeconds: 90 }], 11) });
    renderPage(<ReleasedInstancesPage />, '/x');
    const row = (await screen.findByText(ENDED_CONTAINER.instanceId)).closest('tr') as HTMLElement;
    expect(within(row).getByText('llm-serve').getAttribute('href')).toBe(`/ctrl-flexible-deployment/flexiible-deployment/view-container?deploymentUid=${ENDED_CONTAINER.deploymentUid}`);
    expect(within(row).getByText('RTX 4090 × 1')).toBeTruthy();
    expect(within(row).getByText('北京A区')).toBeTruthy();
    expect(within(row).getByText('59分')).toBeTruthy();
    expect(within(row).getByText('¥1.77')).toBeTruthy();
    expect(within(row).getByText('1分30秒')).toBeTruthy();
    expect(within(row).getByText('命令异常退出（退出码 1）')).toBeTruthy();
    expect(within(row).getByText('退出码 1')).toBeTruthy();
    expect(screen.getByText('已结束的容器记录保留 30 天，之后不再显示。')).toBeTruthy();
    expect(screen.getByText('共 11 个')).toBeTruthy();
  });

  it('shows the empty and error states', async () => {
    mockApi({ 'GET /elastic/released': () => page([]) });
    renderPage(<ReleasedInstancesPage />, '/x');
    expect(await screen.findByText('最近 30 天没有已释放的容器')).toBeTruthy();
    cleanup();
    mockApi({ 'GET /elastic/released': () => failure(500, 50000, '数据库连接失败') });
    renderPage(<ReleasedInstancesPage />, '/x');
    expect(await screen.findByText('已释放实例加载失败')).toBeTruthy();
  });
});
