/** 扩容设置: figures and price before confirming, extend while running, shrink only while off, errors once. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InstanceView } from '../../../../api/compute';
import type { DiskInfo } from '../../../../api/disks';
import { buttonByText, callsTo, failure, findDialog, mockApi, ok, renderPage } from '../../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../../testing';
import { ExpandDiskDialog, planOf } from './ExpandDiskDialog';

afterEach(() => cleanup());

const RUNNING: InstanceView = { ...RUNNING_INSTANCE, dataDiskGb: 150, diskRateFenPerDay: 100 };
const OFF: InstanceView = { ...RUNNING, status: 'PoweredOff', sshCommand: null };

const INFO: DiskInfo = {
  instanceId: RUNNING.instanceId,
  sizeGb: 150,
  usedGb: 12,
  freeGb: 50,
  minGb: 50,
  maxGb: 1500,
  hostFreeGb: 400,
  priceFenPerGbDay: 1,
  rateFenPerDay: 100,
};

function show(instance: InstanceView, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /rental/disk': () => ok(INFO), ...routes });
  const onClose = vi.fn();
  renderPage(<ExpandDiskDialog instance={instance} open onClose={onClose} />);
  return { ...api, onClose };
}

async function dialog(): Promise<HTMLElement> {
  const found = await findDialog();
  await within(found).findByText('150 GB');
  return found;
}

function typeSize(container: HTMLElement, value: string) {
  fireEvent.change(within(container).getByLabelText('调整后容量'), { target: { value } });
}

const bodies = (fetchMock: ReturnType<typeof mockApi>['fetchMock'], path: string) =>
  callsTo(fetchMock, 'POST', path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

describe('ExpandDiskDialog', () => {
  it('shows size, use, the free part and how far it can grow, and prices the new size per day and month before extending', async () => {
    const { fetchMock, onClose, notify } = show(RUNNING, { 'POST /rental/extend_disk': () => ok({ ...INFO, sizeGb: 200, rateFenPerDay: 150, orderId: null }) });
    const found = await dialog();
    expect(within(found).getByText('12 GB')).toBeTruthy();
    expect(within(found).getByText('50 GB')).toBeTruthy();
    // 150 + 400 free on the host, under the host's 1500 GB limit.
    expect(within(found).getByText('550 GB')).toBeTruthy();
    expect(within(found).getByText('实例运行中只能扩容；缩容需先关机，且不能小于已使用的容量。')).toBeTruthy();
    expect(buttonByText('确认调整', found).disabled).toBe(true);

    typeSize(found, '200');
    await within(found).findByText('¥1.50');
    expect(within(found).getByText('¥45.00')).toBeTruthy();
    expect(within(found).getByText('扩容后数据盘为 200 GB，每天 ¥1.50，立即生效，运行中无需重启。')).toBeTruthy();
    fireEvent.click(buttonByText('确认扩容到 200 GB', found));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodies(fetchMock, '/rental/extend_disk')).toEqual([{ instanceId: RUNNING.instanceId, sizeGb: 200 }]);
    expect(callsTo(fetchMock, 'POST', '/rental/shrink_disk')).toHaveLength(0);
    expect(notify).not.toHaveBeenCalled();
  });

  it('offers no shrink while running: a smaller size does nothing', async () => {
    const { fetchMock } = show(RUNNING);
    const found = await dialog();
    typeSize(found, '100');
    expect(buttonByText('确认调整', found).disabled).toBe(true);
    expect(callsTo(fetchMock, 'POST', '/rental/shrink_disk')).toHaveLength(0);
  });

  it('shrinks an instance that is off, and shows the server’s refusal once, in the dialog', async () => {
    const refusal = '数据盘已使用 80 GB，不能缩容到 60 GB，请先清理数据或选择不小于 80 GB 的容量';
    const { fetchMock, onClose, notify } = show(OFF, { 'POST /rental/shrink_disk': () => failure(400, 40000, refusal) });
    const found = await dialog();
    expect(within(found).queryByText('实例运行中只能扩容；缩容需先关机，且不能小于已使用的容量。')).toBeNull();

    typeSize(found, '60');
    await within(found).findByText('缩容后数据盘为 60 GB，每天 ¥0.10。缩容不会删除数据，但不能小于已使用的容量。');
    fireEvent.click(buttonByText('确认缩容到 60 GB', found));

    await within(found).findByText(refusal);
    expect(screen.getAllByText(refusal)).toHaveLength(1);
    expect(notify).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    expect(bodies(fetchMock, '/rental/shrink_disk')).toEqual([{ instanceId: OFF.instanceId, sizeGb: 60 }]);

    // Down to the free size, the disk costs nothing.
    typeSize(found, '50');
    await within(found).findByText('缩容后数据盘为 50 GB，不收费。缩容不会删除数据，但不能小于已使用的容量。');
    expect(screen.queryByText(refusal)).toBeNull();
  });

  it('shows a failed load with a retry', async () => {
    mockApi({ 'GET /rental/disk': () => failure(503, 50300, '服务暂不可用') });
    renderPage(<ExpandDiskDialog instance={RUNNING} open onClose={() => undefined} />);
    const found = await findDialog();
    await within(found).findByText('数据盘信息加载失败');
  });
});

describe('planOf', () => {
  it('extends above the current size, shrinks below it only when allowed, and does nothing at it', () => {
    expect(planOf(150, 200, false)).toEqual({ kind: 'extend', sizeGb: 200 });
    expect(planOf(150, 100, true)).toEqual({ kind: 'shrink', sizeGb: 100 });
    expect(planOf(150, 100, false)).toBeNull();
    expect(planOf(150, 150, true)).toBeNull();
    expect(planOf(150, null, true)).toBeNull();
  });
});
