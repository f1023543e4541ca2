/** 创建弹性部署: the types explained, live stock on the filters, the estimate before 确认创建, validation first, 40026 on the name, then 查看容器. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, renderPage } from '../../ctrl-cost-center/testing';
import { GPUS, OVERVIEW, PUBLIC_IMAGES, ZONES } from '../testing';
import CreateElasticPage from './index';

afterEach(() => cleanup());

function routes(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'POST /elastic/overview': () => ok(OVERVIEW),
    'GET /meta/zone': () => ok(ZONES),
    'GET /meta/gpu': () => ok(GPUS),
    'GET /meta/images/public': () => ok(PUBLIC_IMAGES),
    'GET /rental/private_image': () => page([]),
    'GET /account/': () => ok({ totalBalance: 10_000, balance: 10_000, voucherBalance: 0 }),
    ...extra,
  });
}

/** Opens the select labelled `label` and picks the option showing `text`. */
async function pick(label: string, text: string | RegExp) {
  const input = screen.getByLabelText(label);
  fireEvent.mouseDown(input.closest('.ant-select') as HTMLElement);
  fireEvent.click(await screen.findByText(text, { selector: '.ant-select-item-option-content' }));
}

function estimate(): string {
  return document.querySelector('.slg-elastic-estimate-card')?.textContent ?? '';
}

describe('创建弹性部署', () => {
  it('explains each type in a line and estimates the price per hour from the live stock as the filters change', async () => {
    routes();
    renderPage(<CreateElasticPage />, '/x');
    expect(await screen.findByText(/^始终保持设定数量的容器运行/)).toBeTruthy();
    expect(screen.getByText(/^运行启动命令直到成功完成设定次数/)).toBeTruthy();
    expect(screen.getByText(/^启动一个容器，命令结束或释放后不再重建/)).toBeTruthy();
    // Any host: the cheapest RTX 4090 at ¥1.80, up to an A100 at ¥7.00.
    await waitFor(() => expect(estimate()).toContain('¥1.80 – ¥7.00/时'));
    expect(estimate()).toContain('按实际调度主机价格按秒计费');
    await pick('GPU 型号', 'A100 · 空闲 4/8 卡 · ¥6.00–¥7.00/卡时');
    await waitFor(() => expect(estimate()).toContain('¥6.00 – ¥7.00/时'));
    fireEvent.change(screen.getByLabelText('容器数量'), { target: { value: '3' } });
    await waitFor(() => expect(estimate()).toContain('¥18.00 – ¥21.00/时'));
    expect(estimate()).toContain('3 个 × 1 卡');
  });

  it('checks the form before anything is sent: name, image, environment names', async () => {
    const api = routes();
    renderPage(<CreateElasticPage />, '/x');
    await screen.findByText(/^始终保持设定数量的容器运行/);
    fireEvent.click(buttonByText('创建部署', document.querySelector('.slg-elastic-estimate-card') as HTMLElement));
    expect(await screen.findByText('请输入部署名称')).toBeTruthy();
    expect(screen.getByText('请选择镜像')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('部署名称'), { target: { value: 'bad name!' } });
    expect(await screen.findByText('名称为1–32个字符，可包含中英文、数字、下划线、点和短横线', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    fireEvent.click(buttonByText('添加环境变量'));
    fireEvent.change(screen.getByLabelText('变量名 1'), { target: { value: '1X' } });
    expect(await screen.findByText('以字母或下划线开头，只含字母、数字和下划线，最多 64 个字符')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/elastic')).toHaveLength(0);
  });

  it('shows the estimate in the confirmation, creates, and opens the new deployment’s containers', async () => {
    const api = routes({ 'POST /elastic': () => ok({ id: 12, deploymentUid: 'new-uid' }) });
    const { router } = renderPage(<CreateElasticPage />, '/x');
    await screen.findByText(/^始终保持设定数量的容器运行/);
    fireEvent.change(screen.getByLabelText('部署名称'), { target: { value: ' llm-serve ' } });
    await pick('镜像', 'PyTorch 2.5.1');
    expect(await screen.findByText('该镜像需要主机支持 CUDA 12.4 及以上，只会调度到满足的主机。')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('容器数量'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('启动命令'), { target: { value: 'python serve.py' } });
    fireEvent.click(buttonByText('创建部署', document.querySelector('.slg-elastic-estimate-card') as HTMLElement));
    const dialog = await findDialog();
    expect(dialog.textContent).toContain('确认创建弹性部署');
    expect(dialog.textContent).toContain('llm-serve');
    expect(dialog.textContent).toContain('2 个容器，每个容器 1 卡');
    expect(dialog.textContent).toContain('¥3.60 – ¥14.00/时');
    expect(callsTo(api.fetchMock, 'POST', '/elastic')).toHaveLength(0);
    fireEvent.click(buttonByText('确认创建', dialog));
    await waitFor(() => expect(router.state.location.search).toBe('?deploymentUid=new-uid'));
    expect(router.state.location.pathname).toBe('/ctrl-flexible-deployment/flexiible-deployment/view-container');
    const call = callsTo(api.fetchMock, 'POST', '/elastic')[0];
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ name: 'llm-serve', type: 'REPLICA_SET', imageId: 'pytorch-2.5.1', gpuNum: 1, replicaNum: 2, cmd: 'python serve.py' });
    expect(new Headers(call?.[1]?.headers).get('Idempotency-Key')).toBeTruthy();
  });

  it('shows a taken name (40026) under the name field, not as a toast', async () => {
    const api = routes({ 'POST /elastic': () => failure(409, 40026, '部署名称 debug 已存在') });
    renderPage(<CreateElasticPage />, '/x');
    await screen.findByText(/^始终保持设定数量的容器运行/);
    fireEvent.click(screen.getByText('临时容器'));
    expect(await screen.findByText('临时容器只运行 1 个容器')).toBeTruthy();
    expect(screen.queryByLabelText('容器数量')).toBeNull();
    fireEvent.change(screen.getByLabelText('部署名称'), { target: { value: 'debug' } });
    await pick('镜像', 'PyTorch 2.5.1');
    fireEvent.click(buttonByText('创建部署', document.querySelector('.slg-elastic-estimate-card') as HTMLElement));
    fireEvent.click(buttonByText('确认创建', await findDialog()));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/elastic')).toHaveLength(1));
    // The client shows 40026 in its catalogue's words.
    const field = (await screen.findByText('名称已存在，请重新输入')).closest('.ant-form-item') as HTMLElement;
    expect(within(field).getByLabelText('部署名称')).toBeTruthy();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/elastic')[0]?.[1]?.body))).toMatchObject({ type: 'CONTAINER', replicaNum: 1 });
  });
});
