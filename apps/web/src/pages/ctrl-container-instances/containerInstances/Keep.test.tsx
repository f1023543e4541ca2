/** 保留实例: the daily price of all disks before turning it on, the loss named before turning it off. */
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView } from '../../../api/compute';
import { callsTo, findDialog, mockApi, ok, renderPage } from '../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../testing';
import { KeepDialog } from './components/KeepDialog';

afterEach(cleanup);

const OFF: InstanceView = { ...RUNNING_INSTANCE, status: 'PoweredOff', dataDiskGb: 100 };
const DISK = { instanceId: OFF.instanceId, sizeGb: 100, usedGb: 3, freeGb: 50, minGb: 50, maxGb: 1500, hostFreeGb: 5000, priceFenPerGbDay: 1, rateFenPerDay: 50 };

describe('保留实例', () => {
  it('names the daily price of the system and data disks and sends keep: true', async () => {
    const { fetchMock } = mockApi({ 'GET /rental/disk': () => ok(DISK), 'PUT /rental/keep_when_off': () => ok({ keepWhenOff: true, rateFenPerDay: 130 }) });
    renderPage(<KeepDialog instance={OFF} open onClose={() => undefined} />);
    const dialog = await findDialog();
    expect(await within(dialog).findByText(/每天从余额扣除 ¥1\.30（系统盘 30 GB \+ 数据盘 100 GB）/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: '开启保留' }));
    await waitFor(() => expect(callsTo(fetchMock, 'PUT', '/rental/keep_when_off')).toHaveLength(1));
    const [, init] = callsTo(fetchMock, 'PUT', '/rental/keep_when_off')[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ instanceId: OFF.instanceId, keep: true });
  });

  it('turning it off says until when it is paid and that the data will be deleted', async () => {
    mockApi({ 'GET /rental/disk': () => ok(DISK) });
    renderPage(<KeepDialog instance={{ ...OFF, keepWhenOff: true, retainedUntil: '2026-12-01T00:00:00Z' }} open onClose={() => undefined} />);
    const dialog = await findDialog();
    expect(within(dialog).getByText(/已付费保留至 2026-12-01.*之后）将被自动释放，系统盘和数据盘的数据将被删除且无法恢复/)).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: '关闭保留' })).toBeTruthy();
  });
});
