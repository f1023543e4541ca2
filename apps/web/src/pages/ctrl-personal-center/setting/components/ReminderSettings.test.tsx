/** 提醒设置: the settings as the server keeps them, the threshold typed in yuan and sent in fen, checks before sending, server errors on the field. */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification } from '../../../../api/notifications';
import type { ReminderSettings as Settings, ReminderView } from '../../../../api/reminders';
import { setToastInstance, type ToastApi } from '../../../../api/toast';
import { noticeTarget } from '../../../../components/notifications/NotificationPanel';
import { NOTIFICATION_TEXTS } from '../../../../components/notifications/texts';
import { buttonByText, buttonsByText, callsTo, failure, mockApi, ok, renderPage } from '../../../ctrl-cost-center/testing';
import { checkThreshold, ReminderSettings, reminderRequestOf } from './ReminderSettings';

const toastOpen = vi.fn<ToastApi['open']>();
beforeEach(() => {
  toastOpen.mockReset();
  setToastInstance({ open: toastOpen, destroy: vi.fn() });
});
afterEach(cleanup);

const view = (remindType: ReminderView['remindType'], changes: Partial<ReminderView> = {}): ReminderView => ({
  remindType,
  enabled: remindType === 'RELEASE' || remindType === 'STOCK',
  thresholdFen: null,
  daysBefore: remindType === 'PACKAGE_EXPIRING' ? 3 : null,
  sms: true,
  firedAt: null,
  ...changes,
});

const DEFAULTS: Settings = {
  balanceFen: 123_456,
  sharedMainBalance: false,
  list: [view('BALANCE_LOW'), view('PACKAGE_EXPIRING'), view('RELEASE'), view('STOCK')],
};

function rowOf(title: string): HTMLElement {
  return screen.getByRole('region', { name: title });
}

function bodyOf(fetchMock: Parameters<typeof callsTo>[0], method: string, index = 0): unknown {
  return JSON.parse(String(callsTo(fetchMock, method, '/reminder')[index]?.[1]?.body));
}

async function renderWith(settings: Settings, routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'GET /reminder': () => ok(settings), ...routes });
  renderPage(<ReminderSettings />, '/x');
  expect(await screen.findByText('余额不足提醒')).toBeTruthy();
  return api;
}

describe('提醒设置', () => {
  it('shows each type with its saved setting, the balance beside the threshold, and what each reminder does', async () => {
    await renderWith({
      ...DEFAULTS,
      list: [
        view('BALANCE_LOW', { enabled: true, thresholdFen: 10_050, sms: false, firedAt: '2026-06-01T02:00:00Z' }),
        view('PACKAGE_EXPIRING', { enabled: true, daysBefore: 7 }),
        view('RELEASE', { sms: false }),
        view('STOCK'),
      ],
    });
    const balance = rowOf('余额不足提醒');
    expect((within(balance).getByLabelText('提醒金额') as HTMLInputElement).value).toBe('100.50');
    expect(within(balance).getByText('当前余额 ¥1,234.56')).toBeTruthy();
    expect(within(balance).getByRole('switch', { name: '开启余额不足提醒' }).getAttribute('aria-checked')).toBe('true');
    expect((within(balance).getByLabelText('余额不足提醒同时发送短信') as HTMLInputElement).checked).toBe(false);
    expect(within(balance).getByText(/已于2026-06-01 \d\d:00:00提醒过；余额回到¥100.50以上后，再次低于时会重新提醒。/)).toBeTruthy();

    const packages = rowOf('包年包月到期提醒');
    expect(within(packages).getByText('到期前7天')).toBeTruthy();
    expect(within(packages).getByText(/续费后到新的到期时间前会再次提醒/)).toBeTruthy();

    const release = rowOf('实例释放提醒');
    const releaseSwitch = within(release).getByRole('switch', { name: '开启实例释放提醒' });
    expect(releaseSwitch.getAttribute('aria-checked')).toBe('true');
    expect((releaseSwitch as HTMLButtonElement).disabled).toBe(true);
    expect(within(release).getByText('站内消息始终发送')).toBeTruthy();
    expect(within(release).getByText(/关闭短信后只是不再发短信/)).toBeTruthy();
    expect((within(release).getByLabelText('实例释放提醒同时发送短信') as HTMLInputElement).checked).toBe(false);
    expect((within(rowOf('到货提醒')).getByLabelText('到货提醒同时发送短信') as HTMLInputElement).checked).toBe(true);
    // Nothing changed: nothing to save.
    expect(buttonsByText('保存')).toHaveLength(0);
  });

  it('turns the balance reminder on with the yuan typed sent as fen, after checking it', async () => {
    const api = await renderWith(DEFAULTS, {
      'POST /reminder': () => ok(view('BALANCE_LOW', { enabled: true, thresholdFen: 1_234 })),
    });
    const row = rowOf('余额不足提醒');
    expect(within(row).queryByLabelText('提醒金额')).toBeNull();
    fireEvent.click(within(row).getByRole('switch', { name: '开启余额不足提醒' }));
    const input = await within(row).findByLabelText('提醒金额');
    expect(within(row).getByText('当前余额 ¥1,234.56')).toBeTruthy();

    const save = buttonByText('保存', row);
    fireEvent.click(save);
    expect(await within(row).findByText('请输入提醒金额')).toBeTruthy();
    for (const [typed, message] of [
      ['12.345', '请输入正确的金额，最多两位小数'],
      ['abc', '请输入正确的金额，最多两位小数'],
      ['0', '提醒金额不能低于¥0.01'],
      ['100000.01', '提醒金额不能超过¥100,000.00'],
    ] as const) {
      fireEvent.change(input, { target: { value: typed } });
      expect(await within(row).findByText(message)).toBeTruthy();
    }
    expect(callsTo(api.fetchMock, 'POST', '/reminder')).toHaveLength(0);

    fireEvent.change(input, { target: { value: '12.34' } });
    fireEvent.click(within(row).getByLabelText('余额不足提醒同时发送短信'));
    fireEvent.click(save);
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/reminder')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'POST')).toEqual({ remindType: 'BALANCE_LOW', thresholdFen: 1_234, sms: false });
    await waitFor(() => expect(toastOpen).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', content: '余额不足提醒已保存：余额低于¥12.34时提醒（仅站内消息）' })));
  });

  it('warns when the balance is already below the amount typed, and shows the server’s refusal on the field', async () => {
    const api = await renderWith(
      { ...DEFAULTS, balanceFen: 5_000, sharedMainBalance: true },
      { 'POST /reminder': () => failure(400, 40000, '提醒金额不能超过¥100,000.00') },
    );
    const row = rowOf('余额不足提醒');
    fireEvent.click(within(row).getByRole('switch', { name: '开启余额不足提醒' }));
    expect(await within(row).findByText('主账号余额 ¥50.00（共用主账号余额）')).toBeTruthy();
    fireEvent.change(within(row).getByLabelText('提醒金额'), { target: { value: '60' } });
    expect(await within(row).findByText('当前余额已低于提醒金额，保存后约1分钟内会收到提醒。')).toBeTruthy();
    fireEvent.click(buttonByText('保存', row));
    expect(await within(row).findByText('提醒金额不能超过¥100,000.00')).toBeTruthy();
    expect(bodyOf(api.fetchMock, 'POST')).toEqual({ remindType: 'BALANCE_LOW', thresholdFen: 6_000, sms: true });
    // Shown on the field, not toasted besides.
    expect(api.notify).not.toHaveBeenCalled();
  });

  it('turns the package reminder on with its default days, and off with DELETE', async () => {
    const api = await renderWith(DEFAULTS, {
      'POST /reminder': () => ok(view('PACKAGE_EXPIRING', { enabled: true })),
    });
    const row = rowOf('包年包月到期提醒');
    fireEvent.click(within(row).getByRole('switch', { name: '开启包年包月到期提醒' }));
    expect(await within(row).findByText('到期前3天（默认）')).toBeTruthy();
    fireEvent.click(buttonByText('保存', row));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/reminder')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'POST')).toEqual({ remindType: 'PACKAGE_EXPIRING', daysBefore: 3, sms: true });
    cleanup();

    const off = await renderWith(
      { ...DEFAULTS, list: [view('BALANCE_LOW'), view('PACKAGE_EXPIRING', { enabled: true, daysBefore: 5 }), view('RELEASE'), view('STOCK')] },
      { 'DELETE /reminder': () => ok(view('PACKAGE_EXPIRING')) },
    );
    const saved = rowOf('包年包月到期提醒');
    fireEvent.click(within(saved).getByRole('switch', { name: '开启包年包月到期提醒' }));
    expect(await within(saved).findByText('有未保存的修改')).toBeTruthy();
    fireEvent.click(buttonByText('保存', saved));
    await waitFor(() => expect(callsTo(off.fetchMock, 'DELETE', '/reminder')).toHaveLength(1));
    const url = new URL(String(callsTo(off.fetchMock, 'DELETE', '/reminder')[0]?.[0]), 'http://localhost');
    expect(url.searchParams.get('remindType')).toBe('PACKAGE_EXPIRING');
    await waitFor(() => expect(toastOpen).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', content: '包年包月到期提醒已关闭' })));
  });

  it('switches the SMS of release reminders off while their console notice stays', async () => {
    const api = await renderWith(DEFAULTS, { 'POST /reminder': () => ok(view('RELEASE', { sms: false })) });
    const row = rowOf('实例释放提醒');
    fireEvent.click(within(row).getByLabelText('实例释放提醒同时发送短信'));
    await within(row).findByText('有未保存的修改');
    fireEvent.click(buttonByText('保存', row));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/reminder')).toHaveLength(1));
    expect(bodyOf(api.fetchMock, 'POST')).toEqual({ remindType: 'RELEASE', sms: false });
    await waitFor(() => expect(toastOpen).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', content: '实例释放提醒不再发送短信，站内消息照常' })));
  });

  it('shows a load error with 重试', async () => {
    let calls = 0;
    mockApi({
      'GET /reminder': () => {
        calls += 1;
        return calls === 1 ? failure(500, 50000, '数据库连接失败') : ok(DEFAULTS);
      },
    });
    renderPage(<ReminderSettings />, '/x');
    expect(await screen.findByText('提醒设置加载失败')).toBeTruthy();
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByText('余额不足提醒')).toBeTruthy();
  });
});

describe('rules', () => {
  it('turns a draft into its request', () => {
    expect(reminderRequestOf('BALANCE_LOW', { enabled: true, threshold: '0.29', sms: true })).toEqual({ action: 'save', input: { remindType: 'BALANCE_LOW', thresholdFen: 29, sms: true } });
    expect(reminderRequestOf('BALANCE_LOW', { enabled: true, threshold: '', sms: true })).toEqual({ action: 'invalid', field: 'threshold', message: '请输入提醒金额' });
    expect(reminderRequestOf('BALANCE_LOW', { enabled: false, threshold: '5', sms: true })).toEqual({ action: 'delete' });
    expect(reminderRequestOf('PACKAGE_EXPIRING', { enabled: true, daysBefore: 30, sms: false })).toEqual({ action: 'save', input: { remindType: 'PACKAGE_EXPIRING', daysBefore: 30, sms: false } });
    expect(reminderRequestOf('STOCK', { enabled: false, sms: true })).toEqual({ action: 'save', input: { remindType: 'STOCK', sms: true } });
    expect(checkThreshold('100000')).toEqual({ fen: 10_000_000 });
    expect(checkThreshold('0.01')).toEqual({ fen: 1 });
  });

  it('the bell names the new kinds and leads a low balance to 充值', () => {
    expect(NOTIFICATION_TEXTS.kinds.BALANCE_LOW).toBe('余额不足');
    expect(NOTIFICATION_TEXTS.kinds.PACKAGE_EXPIRING).toBe('即将到期');
    const notice: Notification = { id: 1, kind: 'BALANCE_LOW', title: '余额已低于¥50.00', body: '', instanceId: null, read: false, createdAt: '2026-06-01T02:00:00Z', readAt: null };
    expect(noticeTarget(notice, { loggedIn: true, accountType: 1, permissions: null })).toBe('/ctrl-cost-center/cost-center/recharge');
    expect(noticeTarget({ ...notice, kind: 'PACKAGE_EXPIRING', instanceId: 'gpu-abc' }, { loggedIn: true, accountType: 1, permissions: null })).toBe('/ctrl-container-instances/containerInstances');
  });
});
