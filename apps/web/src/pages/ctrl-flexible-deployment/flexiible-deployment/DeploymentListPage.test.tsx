/** 部署列表: rows with status, counts and cost; locked rows refuse edit/stop/delete; destructive actions say their effect; live while stopping. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElasticDeploymentView } from '../../../api/elastic';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, pending, renderPage } from '../../ctrl-cost-center/testing';
import { DEPLOYMENT } from '../testing';
import DeploymentListPage from './index';

afterEach(() => cleanup());

const JOB: ElasticDeploymentView = {
  ...DEPLOYMENT,
  id: 8,
  deploymentUid: 'job-uid',
  name: 'batch-eval',
  type: 'JOB',
  replicaNum: 10,
  parallelismNum: 2,
  runningNum: 2,
  waitingNum: 0,
  waitingReason: null,
  succeededNum: 4,
  failedNum: 1,
  locked: true,
};
const STOPPED: ElasticDeploymentView = {
  ...DEPLOYMENT,
  id: 9,
  deploymentUid: 'stopped-uid',
  name: 'old-serve',
  status: 'STOPPED',
  statusReason: '账户欠费，部署已停止',
  runningNum: 0,
  waitingNum: 0,
  costPerHourFen: 0,
};

function rowOf(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'a' }).closest('tr') as HTMLElement;
}

function named(container: HTMLElement, label: string): HTMLButtonElement | HTMLAnchorElement {
  const element = container.querySelector<HTMLButtonElement | HTMLAnchorElement>(`[aria-label="${label}"]`);
  if (!element) throw new Error(`nothing labelled ${label}`);
  return element;
}

describe('部署列表', () => {
  it('shows type, status with its reason, running of wanted with 等待调度, a job’s completions, GPUs, cost and the lock', async () => {
    mockApi({ 'GET /elastic/list': () => page([DEPLOYMENT, JOB, STOPPED]) });
    renderPage(<DeploymentListPage />, '/x');
    expect(await screen.findByText('llm-serve')).toBeTruthy();
    const serve = rowOf('llm-serve');
    expect(within(serve).getByText('常驻服务')).toBeTruthy();
    expect(within(serve).getByText('运行中')).toBeTruthy();
    expect(within(serve).getByText('2/3 运行中')).toBeTruthy();
    expect(within(serve).getByText('等待调度 1')).toBeTruthy();
    expect(within(serve).getByText('1 卡')).toBeTruthy();
    expect(within(serve).getByText('¥3.60/时')).toBeTruthy();
    expect(named(serve, '查看容器部署 llm-serve').getAttribute('href')).toBe(`/ctrl-flexible-deployment/flexiible-deployment/view-container?deploymentUid=${DEPLOYMENT.deploymentUid}`);

    const job = rowOf('batch-eval');
    expect(within(job).getByText('任务')).toBeTruthy();
    expect(within(job).getByText('4/10 已完成')).toBeTruthy();
    expect(within(job).getByText('2 个运行中')).toBeTruthy();
    expect(within(job).getByText('失败 1')).toBeTruthy();
    expect(within(job).getByLabelText('已锁定')).toBeTruthy();

    const stopped = rowOf('old-serve');
    expect(within(stopped).getByText('已停止')).toBeTruthy();
    expect(within(stopped).getByText('账户欠费，部署已停止')).toBeTruthy();
    expect(within(stopped).getByText('不计费')).toBeTruthy();
    expect((named(stopped, '停止部署 old-serve') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('共 3 个')).toBeTruthy();
  });

  it('disables 编辑, 停止 and 删除 of a locked deployment, and 解锁 unlocks it', async () => {
    const api = mockApi({ 'GET /elastic/list': () => page([JOB]), 'PUT /elastic/8/unlock': () => ok(null) });
    renderPage(<DeploymentListPage />, '/x');
    await screen.findByText('batch-eval');
    const job = rowOf('batch-eval');
    for (const action of ['编辑', '停止', '删除']) expect((named(job, `${action}部署 batch-eval`) as HTMLButtonElement).disabled, action).toBe(true);
    fireEvent.click(named(job, '解锁部署 batch-eval'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'PUT', '/elastic/8/unlock')).toHaveLength(1));
  });

  it('asks before 停止 and 删除, naming what happens to the containers, their data and the billing', async () => {
    const api = mockApi({
      'GET /elastic/list': () => page([DEPLOYMENT]),
      'PUT /elastic/7/stop': () => ok(null),
      'DELETE /elastic/7': () => ok(null),
    });
    renderPage(<DeploymentListPage />, '/x');
    await screen.findByText('llm-serve');
    fireEvent.click(named(rowOf('llm-serve'), '停止部署 llm-serve'));
    let dialog = await findDialog();
    expect(dialog.textContent).toContain('停止部署“llm-serve”？');
    expect(dialog.textContent).toContain('全部容器都将被释放');
    expect(dialog.textContent).toContain('数据随之删除');
    expect(dialog.textContent).toContain('计费随即停止');
    expect(callsTo(api.fetchMock, 'PUT', '/elastic/7/stop')).toHaveLength(0);
    fireEvent.click(buttonByText('停止部署', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'PUT', '/elastic/7/stop')).toHaveLength(1));

    fireEvent.click(named(rowOf('llm-serve'), '删除部署 llm-serve'));
    dialog = await waitFor(() => {
      const shown = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].find((item) => item.textContent?.includes('删除部署“llm-serve”？'));
      if (!shown) throw new Error('no delete dialog');
      return shown;
    });
    expect(dialog.textContent).toContain('先停止部署');
    expect(dialog.textContent).toContain('从列表中移除');
    fireEvent.click(buttonByText('删除部署', dialog));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/elastic/7')).toHaveLength(1));
  });

  it('filters by status and name in the request, and shows loading, empty and error states', async () => {
    const api = mockApi({ 'GET /elastic/list': () => page([]) });
    renderPage(<DeploymentListPage />, '/x?status=STOPPED&name=serve');
    expect(await screen.findByText('没有符合条件的部署')).toBeTruthy();
    const url = new URL(String(callsTo(api.fetchMock, 'GET', '/elastic/list')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('status')).toBe('STOPPED');
    expect(url.searchParams.get('name')).toBe('serve');
    expect(url.searchParams.get('pageSize')).toBe('10');
    cleanup();

    mockApi({ 'GET /elastic/list': pending });
    const { container } = renderPage(<DeploymentListPage />, '/x');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /elastic/list': () => page([]) });
    renderPage(<DeploymentListPage />, '/x');
    expect(await screen.findByText('还没有弹性部署')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /elastic/list': () => failure(500, 50000, '数据库连接失败') });
    renderPage(<DeploymentListPage />, '/x');
    expect(await screen.findByText('部署列表加载失败')).toBeTruthy();
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
  });

  it('polls while a deployment is stopping and shows it stopped by itself', async () => {
    let listed = 0;
    mockApi({
      'GET /elastic/list': () => {
        listed += 1;
        return page([listed === 1 ? { ...DEPLOYMENT, status: 'STOPPING', waitingNum: 0 } : { ...STOPPED, id: 7, name: 'llm-serve' }]);
      },
    });
    renderPage(<DeploymentListPage />, '/x');
    expect(await screen.findByText('停止中')).toBeTruthy();
    expect(await screen.findByText('已停止', {}, { timeout: 10_000 })).toBeTruthy();
  });
});
