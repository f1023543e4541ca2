/** 到货提醒: the dialog that subscribes, where the market and the power-on refusal offer it, and 我的到货提醒. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView, MarketHost, MarketOverview } from '../../api/compute';
import type { StockAlert } from '../../api/subscriptions';
import { useUserStore } from '../../stores/user';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, page, pending, queryDialog, renderPage } from '../ctrl-cost-center/testing';
import { InstanceActions } from '../ctrl-container-instances/containerInstances/components/InstanceActions';
import MarketPage from './index';
import { StockAlertButton } from './StockAlertDialog';
import { MyStockAlertsButton } from './StockAlertList';
import { RUNNING_INSTANCE } from '../ctrl-container-instances/testing';

afterEach(() => cleanup());

const figures = { hostCount: 2, gpuTotal: 16, gpuFree: 3, maxFreeOnHost: 2, minPricePerGpuFen: 198 };
const OVERVIEW: MarketOverview = {
  chargingRuleId: 1,
  unit: '时',
  gpuModels: [
    { gpuModelId: 'rtx4090', gpuModelName: 'RTX 4090', gpuMemoryGb: 24, ...figures },
    { gpuModelId: 'a800-80g', gpuModelName: 'A800-80GB', gpuMemoryGb: 80, ...figures, gpuFree: 0, maxFreeOnHost: 0 },
  ],
  zones: [
    { zoneId: 'bj-a', zoneName: '北京A区', region: '华北', ...figures },
    { zoneId: 'bj-b', zoneName: '北京B区', region: '华北', ...figures },
  ],
  cells: [
    { zoneId: 'bj-a', gpuModelId: 'rtx4090', ...figures },
    { zoneId: 'bj-b', gpuModelId: 'a800-80g', ...figures, gpuFree: 0, maxFreeOnHost: 0 },
  ],
};

const TARGET = { zoneId: 'bj-a', zoneName: '北京A区', gpuModelId: 'rtx4090', gpuModelName: 'RTX 4090', gpuNum: 4 };

const WAITING: StockAlert = {
  id: 7,
  zoneId: 'bj-b',
  zoneName: '北京B区',
  gpuModelId: 'a800-80g',
  gpuModelName: 'A800-80GB',
  gpuNum: 8,
  status: 'WAITING',
  statusName: '等待中',
  createdAt: '2026-06-01T02:00:00Z',
  notifiedAt: null,
};
const NOTIFIED: StockAlert = { ...WAITING, id: 6, gpuNum: 2, status: 'NOTIFIED', statusName: '已提醒', notifiedAt: '2026-06-01T03:00:00Z' };

const HOST: MarketHost = {
  hostId: 'bj-a-4090-01',
  hostName: '北京A区-4090-01',
  zoneId: 'bj-a',
  zoneName: '北京A区',
  gpuModelId: 'rtx4090',
  gpuModelName: 'RTX 4090',
  gpuMemoryGb: 24,
  gpuTotal: 8,
  gpuFree: 2,
  chargingRuleId: 1,
  pricePerGpuFen: 198,
  unit: '时',
  cpuModelId: 'xeon',
  cpuModelName: 'Intel Xeon Platinum 8352V',
  cpuPerGpu: 16,
  memoryGbPerGpu: 64,
  dataDiskFreeGb: 800,
  dataDiskMaxGb: 1000,
  cudaVersion: '12.4',
  driverVersion: '550.107.02',
};

const bodiesOf = (fetchMock: ReturnType<typeof mockApi>['fetchMock'], method: string, path: string) =>
  callsTo(fetchMock, method, path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

/** Picks an option of the antd Select labelled `label` inside `container`. */
async function choose(container: HTMLElement, label: string, option: string) {
  fireEvent.mouseDown(within(container).getByLabelText(label));
  const options = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].filter(
      (element) => element.textContent === option,
    );
    if (found.length === 0) throw new Error(`no option ${option}`);
    return found;
  });
  fireEvent.click(options[options.length - 1] as HTMLElement);
}

/** The dialog whose title is 订阅到货提醒 (a power-on dialog may be open under it). */
async function alertDialog(): Promise<HTMLElement> {
  return waitFor(() => {
    const found = screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes('订阅到货提醒'));
    if (!found) throw new Error('no stock alert dialog');
    return found;
  });
}

describe('订阅到货提醒 dialog', () => {
  it('opens with the zone, model and GPU count preselected, says what is free now and subscribes with them', async () => {
    const api = mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'POST /subscriptions': () => ok({ ...WAITING, id: 9 }) });
    renderPage(<StockAlertButton target={TARGET} />);
    fireEvent.click(screen.getByLabelText('订阅到货提醒：北京A区 RTX 4090 4 卡'));
    const dialog = await alertDialog();
    expect(dialog.textContent).toContain('短信通知您一次');
    await waitFor(() => expect(dialog.textContent).toContain('当前空闲 3/16 卡，单台主机最多空闲 2 卡'));
    for (const [label, shown] of [['地区', '北京A区'], ['GPU 型号', 'RTX 4090'], ['GPU 数量', '4 卡']] as const) {
      const field = within(dialog).getByLabelText(label).closest('.ant-select') as HTMLElement;
      expect(field.textContent).toContain(shown);
    }
    // Two GPUs are free on one host now: said, and it can still be subscribed.
    await choose(dialog, 'GPU 数量', '2 卡');
    expect(dialog.textContent).toContain('现在已有主机空闲 2 卡');
    await choose(dialog, 'GPU 数量', '3 卡');
    expect(dialog.textContent).not.toContain('现在已有主机空闲');

    fireEvent.click(buttonByText('订阅提醒', dialog));
    await waitFor(() => expect(bodiesOf(api.fetchMock, 'POST', '/subscriptions')).toEqual([{ zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: 3 }]));
    await waitFor(() => expect(queryDialog()).toBeNull());
  });

  it('shows a refusal (已订阅) in the dialog instead of a toast, and stays open', async () => {
    const message = '已订阅北京A区 RTX 4090 4卡的到货提醒，有空闲时会通知您，请勿重复订阅';
    const api = mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'POST /subscriptions': () => failure(409, 40028, message) });
    renderPage(<StockAlertButton target={TARGET} />);
    fireEvent.click(screen.getByLabelText('订阅到货提醒：北京A区 RTX 4090 4 卡'));
    const dialog = await alertDialog();
    fireEvent.click(buttonByText('订阅提醒', dialog));
    expect(await within(dialog).findByText(message)).toBeTruthy();
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(api.notify).not.toHaveBeenCalled();
    // Another choice clears it.
    await choose(dialog, 'GPU 数量', '8 卡');
    expect(within(dialog).queryByText(message)).toBeNull();
  });

  it('marks zones without the model and models the zone lacks, and still works when the overview cannot load', async () => {
    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW) });
    renderPage(<StockAlertButton target={TARGET} />);
    fireEvent.click(screen.getByLabelText('订阅到货提醒：北京A区 RTX 4090 4 卡'));
    const dialog = await alertDialog();
    await waitFor(() => expect(dialog.textContent).toContain('当前空闲'));
    fireEvent.mouseDown(within(dialog).getByLabelText('地区'));
    const zoneB = await waitFor(() => {
      const found = [...document.querySelectorAll('.ant-select-item-option')].find((option) => option.textContent === '北京B区（无此型号）');
      if (!found) throw new Error('no 北京B区 option');
      return found;
    });
    expect(zoneB.className).toContain('ant-select-item-option-disabled');
    cleanup();

    mockApi({ 'GET /comppower/overview': () => failure(500, 50000, '数据库连接失败') });
    renderPage(<StockAlertButton target={TARGET} />);
    fireEvent.click(screen.getByLabelText('订阅到货提醒：北京A区 RTX 4090 4 卡'));
    const offline = await alertDialog();
    expect(await within(offline).findByText('空闲情况加载失败，仍可订阅')).toBeTruthy();
    expect((within(offline).getByLabelText('地区').closest('.ant-select') as HTMLElement).textContent).toContain('北京A区');
  });

  it('signed out, is a link through the login back to where the user was', () => {
    mockApi({});
    useUserStore.getState().clear();
    renderPage(<StockAlertButton target={TARGET} />, '/computility-market?gpuModelId=rtx4090');
    const link = screen.getByLabelText('登录后订阅到货提醒');
    expect(link.tagName).toBe('A');
    expect(link.getAttribute('href')).toBe(`/login?redirect=${encodeURIComponent('/computility-market?gpuModelId=rtx4090')}`);
  });
});

describe('到货提醒 in the market', () => {
  it('offers it above the hosts when no host of the chosen model and zone can give the GPUs, with them preselected', async () => {
    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([]), 'GET /subscriptions': () => page([]) });
    renderPage(<MarketPage />, '/computility-market?gpuModelId=a800-80g&zoneId=bj-b&gpuNum=4');
    expect(await screen.findByText('北京B区的A800-80GB暂无可租 4 卡的主机')).toBeTruthy();
    fireEvent.click(screen.getByLabelText('订阅到货提醒：北京B区 A800-80GB 4 卡'));
    const dialog = await alertDialog();
    expect((within(dialog).getByLabelText('GPU 型号').closest('.ant-select') as HTMLElement).textContent).toContain('A800-80GB');
  });

  it('offers nothing above the hosts while one can give the GPUs, and 到货提醒 beside a host with too few', async () => {
    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([HOST]), 'GET /subscriptions': () => page([]) });
    renderPage(<MarketPage />, '/computility-market?gpuModelId=rtx4090&zoneId=bj-a&gpuNum=2');
    await screen.findByText('北京A区-4090-01');
    expect(screen.queryByText(/暂无可租/)).toBeNull();
    cleanup();

    mockApi({ 'GET /comppower/overview': () => ok(OVERVIEW), 'GET /comppower': () => page([HOST]), 'GET /subscriptions': () => page([]) });
    renderPage(<MarketPage />, '/computility-market?gpuNum=4');
    const row = (await screen.findByText('北京A区-4090-01')).closest('tr') as HTMLElement;
    expect(within(row).getByText('仅空闲 2 卡')).toBeTruthy();
    fireEvent.click(within(row).getByLabelText('订阅到货提醒：北京A区 RTX 4090 4 卡'));
    expect((await alertDialog()).textContent).toContain('订阅到货提醒');
  });
});

describe('到货提醒 from the power-on refusal', () => {
  it('offers it with the instance’s zone, model and GPU count when the host has too few GPUs', async () => {
    const stopped: InstanceView = {
      ...RUNNING_INSTANCE,
      instanceId: 'slg-cccccccccc',
      rentalId: 3,
      rentalUid: 'r-3',
      status: 'PoweredOff',
      sshCommand: null,
      runStartedAt: null,
      poweredOffAt: '2025-01-02T00:00:00Z',
      releaseAt: '2025-01-17T00:00:00Z',
    };

    const api = mockApi({
      'POST /rental/power_on': () => failure(409, 40940, '主机GPU不足：该主机当前空闲 0 卡，需要 2 卡'),
      'GET /comppower/overview': () => ok(OVERVIEW),
      'POST /subscriptions': () => ok({ ...WAITING, zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: 2 }),
    });
    renderPage(<InstanceActions instance={stopped} />);
    fireEvent.click(buttonByText('开机'));
    const powerOn = await findDialog();
    fireEvent.click(buttonByText('有卡开机', powerOn));
    await within(powerOn).findByText(/该主机当前空闲 0 卡/);

    fireEvent.click(within(powerOn).getByLabelText('订阅到货提醒：北京A区 RTX 4090 2 卡'));
    const dialog = await alertDialog();
    fireEvent.click(buttonByText('订阅提醒', dialog));
    await waitFor(() => expect(bodiesOf(api.fetchMock, 'POST', '/subscriptions')).toEqual([{ zoneId: 'bj-a', gpuModelId: 'rtx4090', gpuNum: 2 }]));
  });
});

describe('我的到货提醒', () => {
  it('counts the waiting ones, lists each with its status, and cancels a waiting one after saying what it stops', async () => {
    let list = [WAITING, NOTIFIED];
    const api = mockApi({
      'GET /subscriptions': (url) => (url.searchParams.get('status') === 'WAITING' ? page(list.filter((item) => item.status === 'WAITING')) : page(list)),
      'DELETE /subscriptions': (url) => {
        list = list.filter((item) => String(item.id) !== url.searchParams.get('id'));
        return ok(null);
      },
    });
    renderPage(<MyStockAlertsButton />);
    fireEvent.click(await screen.findByText('我的到货提醒（1）'));
    const drawer = await findDialog();
    const waiting = (await within(drawer).findByText('北京B区 · A800-80GB × 8 卡')).closest('li') as HTMLElement;
    expect(within(waiting).getByText('等待中')).toBeTruthy();
    expect(waiting.textContent).toContain('有空闲时提醒');
    const fired = within(drawer).getByText('北京B区 · A800-80GB × 2 卡').closest('li') as HTMLElement;
    expect(within(fired).getByText('已提醒')).toBeTruthy();
    expect(fired.textContent).toMatch(/已于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} 提醒/);
    expect(within(fired).getByLabelText('删除到货提醒记录：北京B区 · A800-80GB × 2 卡')).toBeTruthy();

    fireEvent.click(within(waiting).getByLabelText('取消到货提醒：北京B区 · A800-80GB × 8 卡'));
    const confirm = await waitFor(() => {
      const found = screen.getAllByRole('dialog').find((dialog) => dialog.textContent?.includes('取消后，北京B区 · A800-80GB × 8 卡 有空闲时将不再通知您。'));
      if (!found) throw new Error('no confirmation');
      return found;
    });
    expect(callsTo(api.fetchMock, 'DELETE', '/subscriptions')).toHaveLength(0);
    fireEvent.click(buttonByText('取消提醒', confirm));
    await waitFor(() => expect(callsTo(api.fetchMock, 'DELETE', '/subscriptions')).toHaveLength(1));
    expect(new URL(String(callsTo(api.fetchMock, 'DELETE', '/subscriptions')[0]?.[0]), 'http://localhost').searchParams.get('id')).toBe('7');
    await waitFor(() => expect(within(drawer).queryByText('北京B区 · A800-80GB × 8 卡')).toBeNull());
    // No waiting one left: the button shows no count.
    await waitFor(() => expect(buttonByText('我的到货提醒')).toBeTruthy());
  });

  it('shows loading, empty and error (with 重试) states', async () => {
    mockApi({ 'GET /subscriptions': pending });
    renderPage(<MyStockAlertsButton />);
    fireEvent.click(screen.getByText('我的到货提醒'));
    expect((await findDialog()).querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /subscriptions': () => page([]) });
    renderPage(<MyStockAlertsButton />);
    fireEvent.click(screen.getByText('我的到货提醒'));
    expect(await screen.findByText('还没有到货提醒')).toBeTruthy();
    cleanup();

    mockApi({ 'GET /subscriptions': () => failure(500, 50000, '数据库连接失败') });
    renderPage(<MyStockAlertsButton />);
    fireEvent.click(screen.getByText('我的到货提醒'));
    expect(await screen.findByText('到货提醒加载失败')).toBeTruthy();
    expect(screen.getByText('数据库连接失败')).toBeTruthy();
    expect(buttonByText('重试')).toBeTruthy();
  });
});
