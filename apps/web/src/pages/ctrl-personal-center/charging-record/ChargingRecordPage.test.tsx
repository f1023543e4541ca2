/** 计费记录: per-instance costs with totals, the state and keyword filters, and the empty state. */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChargingRecordDto, ChargingRecordPage, FileStorageChargingRecord } from '../../../api/chargingRecords';
import type { SubUserInfoDto } from '../../../api/user';
import { useUserStore } from '../../../stores/user';
import { callsTo, mockApi, ok, renderPage } from '../../ctrl-cost-center/testing';
import ChargingRecordPageView from './index';

afterEach(() => cleanup());

const RECORD: ChargingRecordDto = {
  instanceId: 'slg-abcdefghij',
  rentalUid: '7d1f0f4e-0000-4000-8000-000000000001',
  name: '训练机',
  zoneName: '北京A区',
  gpuModelName: 'RTX 4090',
  gpuNum: 2,
  chargingRuleId: 1,
  status: 'PoweredOn',
  released: false,
  createdAt: '2026-11-20T02:00:00.000Z',
  releasedAt: null,
  usageFen: 12_345,
  packageFen: 0,
  diskFen: 120,
  totalFen: 12_465,
};

const page = (list: ChargingRecordDto[]): ChargingRecordPage => ({
  list,
  total: list.length,
  page: 1,
  pageSize: 10,
  totals: list.reduce(
    (sum, record) => ({
      usageFen: sum.usageFen + record.usageFen,
      packageFen: sum.packageFen + record.packageFen,
      diskFen: sum.diskFen + record.diskFen,
      totalFen: sum.totalFen + record.totalFen,
    }),
    { usageFen: 0, packageFen: 0, diskFen: 0, totalFen: 0 },
  ),
});

describe('charging record page', () => {
  it('lists each instance with what it cost and the totals', async () => {
    const released: ChargingRecordDto = { ...RECORD, instanceId: 'slg-zzzzzzzzzz', name: '旧实例', released: true, releasedAt: '2026-11-22T02:00:00.000Z', chargingRuleId: 2, usageFen: 0, packageFen: 4_356, diskFen: 0, totalFen: 4_356 };
    mockApi({ 'GET /rental/charging_records': () => ok(page([RECORD, released])) });
    renderPage(<ChargingRecordPageView />, '/ctrl-personal-center/personal-center/charging-record');
    expect(await screen.findByText('训练机')).toBeTruthy();
    expect(screen.getAllByText('RTX 4090 × 2 · 北京A区')).toHaveLength(2);
    expect(screen.getByText('按量计费', { selector: 'td' })).toBeTruthy();
    expect(screen.getByText('已释放', { selector: '.ant-tag' })).toBeTruthy();
    expect(screen.getByText('包日', { selector: 'td' })).toBeTruthy();
    // 123.45 + 1.20 + 43.56 = 168.21 in the totals.
    const totals = document.querySelector('.slg-charging-totals')?.textContent ?? '';
    expect(totals).toContain('累计费用¥168.21');
    expect(totals).toContain('按量计费¥123.45');
    expect(totals).toContain('包年包月¥43.56');
    expect(totals).toContain('数据盘¥1.20');
    expect(screen.getByText('124.65', { exact: false })).toBeTruthy();
  });

  it('asks the server for released instances and for a keyword', async () => {
    const { fetchMock } = mockApi({ 'GET /rental/charging_records': () => ok(page([RECORD])) });
    renderPage(<ChargingRecordPageView />, '/ctrl-personal-center/personal-center/charging-record');
    await screen.findByText('训练机');
    await act(async () => {
      fireEvent.click(screen.getByText('已释放', { selector: '.ant-segmented-item-label' }));
    });
    await waitFor(() => {
      const last = callsTo(fetchMock, 'GET', '/rental/charging_records').at(-1);
      expect(new URL(String(last?.[0]), 'http://localhost').searchParams.get('state')).toBe('released');
    });
    fireEvent.change(screen.getByLabelText('搜索实例ID或名称'), { target: { value: ' slg-abc ' } });
    await act(async () => {
      fireEvent.keyDown(screen.getByLabelText('搜索实例ID或名称'), { key: 'Enter', code: 'Enter', keyCode: 13 });
    });
    await waitFor(() => {
      const last = callsTo(fetchMock, 'GET', '/rental/charging_records').at(-1);
      const params = new URL(String(last?.[0]), 'http://localhost').searchParams;
      expect(params.get('keyword')).toBe('slg-abc');
      expect(params.get('state')).toBe('released');
      expect(params.get('page')).toBe('1');
    });
  });

  it('says there are no instances yet and links to the market', async () => {
    mockApi({ 'GET /rental/charging_records': () => ok(page([])) });
    renderPage(<ChargingRecordPageView />, '/ctrl-personal-center/personal-center/charging-record');
    expect(await screen.findByText('还没有实例，创建实例后这里会显示它产生的费用')).toBeTruthy();
    expect(screen.getByRole('link', { name: '去算力市场' }).getAttribute('href')).toBe('/computility-market');
  });

  it('shows what each region\'s 文件存储 has cost to an account allowed it', async () => {
    const store: FileStorageChargingRecord = {
      zoneId: 'bj-b',
      zoneName: '北京B区',
      status: 'WRITES_BLOCKED',
      usedBytes: 35.5 * 1024 ** 3,
      billableGb: 16,
      priceFenPerGbDay: 1,
      rateFenPerDay: 16,
      chargedFen: 480,
      billedUntil: '2026-11-27T02:00:00.000Z',
      arrearsSince: '2026-11-10T02:00:00.000Z',
      writesBlockedAt: '2026-11-25T02:00:00.000Z',
      orderNo: '202611200000000001',
      createdAt: '2026-10-28T02:00:00.000Z',
      deletedAt: null,
    };
    mockApi({
      'GET /rental/charging_records': () => ok(page([RECORD])),
      'GET /storage/charging_records': () => ok({ list: [store], totalFen: 480 }),
    });
    useUserStore.getState().setUserInfo({
      kind: 'main',
      info: { userId: 1, userName: '138****8001', nickName: '炼丹师', telephone: '138****8001', accountType: 1, roles: [], hasPassword: true, createdAt: '2026-06-01T02:00:00Z' },
    });
    renderPage(<ChargingRecordPageView />, '/ctrl-personal-center/personal-center/charging-record');
    expect(await screen.findByText('北京B区')).toBeTruthy();
    const card = document.querySelector('.slg-charging-storage')?.textContent ?? '';
    expect(card).toContain('累计 ¥4.80');
    expect(card).toContain('欠费禁止写入');
    expect(card).toContain('35.50 GB');
    expect(card).toContain('16 GB');
    expect(card).toContain('¥0.01/GB/天');
    expect(card).toContain('¥0.16');
  });

  it('does not ask for 文件存储 for a sub-account without it', async () => {
    const { fetchMock } = mockApi({ 'GET /rental/charging_records': () => ok(page([RECORD])) });
    const sub: SubUserInfoDto = {
      userId: 77,
      username: 'alice.dev',
      nickname: '小爱',
      accountType: 2,
      permissions: ['CONTAINER'],
      permissionLevels: { CONTAINER: 'ALL', ELASTIC: 'NONE', MIRROR: 'NONE', FILE_STORAGE: 'NONE', INVOICE: 'NONE', MODEL_DEPLOY: 'NONE' },
      sharedMainBalance: true,
      mainAccountId: 12,
      telephone: '',
      mainAccountBalance: 0,
      subAccountBalance: 0,
    };
    useUserStore.getState().setUserInfo({ kind: 'sub', info: sub });
    renderPage(<ChargingRecordPageView />, '/ctrl-personal-center/personal-center/charging-record');
    await screen.findByText('训练机');
    expect(callsTo(fetchMock, 'GET', '/storage/charging_records')).toHaveLength(0);
    expect(document.querySelector('.slg-charging-storage')).toBeNull();
  });
});
