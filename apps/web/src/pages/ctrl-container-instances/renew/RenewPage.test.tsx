/** 续费 page: one or more packages, the price shown is the body paid, refusals once, mixed batches and broken links. */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { InstanceView, RenewBody } from '../../../api/compute';
import { IDEMPOTENCY_HEADER } from '../../../api/idempotency';
import type { VoucherDto } from '../../../api/vouchers';
import { buttonByText, callsTo, failure, mockApi, ok, page, renderPage, type Handler } from '../../ctrl-cost-center/testing';
import { RUNNING_INSTANCE } from '../testing';
import RenewPage, { parseInstanceIds, planRenewal } from './index';

afterEach(cleanup);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();
const FORMAT = 'YYYY-MM-DD HH:mm:ss';

const USAGE: InstanceView = { ...RUNNING_INSTANCE, instanceId: 'slg-uuuuuuuuuu', name: '按量机' };
const WEEKLY: InstanceView = { ...RUNNING_INSTANCE, instanceId: 'slg-wwwwwwwwww', name: '包周机', chargingRuleId: 3, expiresAt: inFuture(3 * DAY) };
const WEEKLY_2: InstanceView = { ...WEEKLY, instanceId: 'slg-wwwwwwwww2', name: '包周机二号', gpuNum: 1, expiresAt: inFuture(6 * DAY) };
const DAILY: InstanceView = { ...RUNNING_INSTANCE, instanceId: 'slg-dddddddddd', name: '包日机', status: 'PoweredOff', chargingRuleId: 2, expiresAt: inFuture(5 * HOUR) };
const RESETTING: InstanceView = { ...WEEKLY, instanceId: 'slg-rrrrrrrrrr', name: '重置中的包周机', status: 'ResetStarted' };
const GONE = 'slg-gggggggggg';
const INSTANCES = [USAGE, WEEKLY, WEEKLY_2, DAILY, RESETTING];

const VOUCHER: VoucherDto = {
  id: 9,
  name: '续费立减券',
  amount: 1000,
  minOrderAmount: 0,
  scope: [],
  validFrom: '2025-01-01T00:00:00Z',
  validTo: inFuture(30 * DAY),
  status: 'UNUSED',
  usedAt: null,
  usedOrderNo: null,
};

/** The server's price of a week per GPU here, ¥554.40, and of a day, ¥87.12. */
const PER_GPU_PERIOD: Record<number, number> = { 2: 8712, 3: 55440 };

const renewPrepay: Handler = (_url, init) => {
  const body = JSON.parse(String(init?.body)) as RenewBody;
  const items = body.instanceIds.map((id) => {
    const instance = INSTANCES.find((item) => item.instanceId === id) as InstanceView;
    const days = instance.chargingRuleId === 3 ? 7 : 1;
    return {
      instanceId: id,
      name: instance.name,
      packageName: instance.chargingRuleId === 3 ? '包周' : '包日',
      amount: (PER_GPU_PERIOD[instance.chargingRuleId] ?? 0) * instance.gpuNum * body.rentAmount,
      expiresAt: new Date(Date.parse(instance.expiresAt ?? '') + days * body.rentAmount * DAY).toISOString(),
    };
  });
  const amount = items.reduce((total, item) => total + item.amount, 0);
  const discount = body.voucherId === VOUCHER.id ? VOUCHER.amount : 0;
  return ok({ amount, discount, payable: amount - discount, items });
};

function api(routes: Record<string, Handler> = {}, balance = 500_000) {
  return mockApi({
    'GET /rental/detail': (url) => {
      const found = INSTANCES.find((instance) => instance.instanceId === url.searchParams.get('instanceId'));
      return found ? ok(found) : failure(404, 40400, '实例不存在');
    },
    'GET /account/': () => ok({ totalBalance: balance }),
    'GET /voucher': () => page([VOUCHER]),
    'POST /rental/renew/prepay': renewPrepay,
    ...routes,
  });
}

const pathFor = (...ids: string[]) => `/ctrl-container-instances/renew?instanceIds=${ids.join(',')}`;
const bodiesOf = (fetchMock: ReturnType<typeof mockApi>['fetchMock'], method: string, path: string) =>
  callsTo(fetchMock, method, path).map(([, init]) => JSON.parse(String(init?.body)) as unknown);

/** Picks an option of the antd Select labelled `label`. */
async function choose(label: string, option: string) {
  fireEvent.mouseDown(screen.getByLabelText(label));
  const options = await waitFor(() => {
    const found = [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')].filter(
      (element) => element.textContent === option,
    );
    if (found.length === 0) throw new Error(`no option ${option}`);
    return found;
  });
  fireEvent.click(options[options.length - 1] as HTMLElement);
}

function lineOf(name: string): HTMLElement {
  return screen.getByText(name, { selector: 'strong' }).closest('li') as HTMLElement;
}

describe('parsing and sorting the instances of a renewal', () => {
  it('accepts well-formed ids once each, up to the server batch', () => {
    expect(parseInstanceIds(`${WEEKLY.instanceId}, ${DAILY.instanceId},${WEEKLY.instanceId},`)).toEqual({ ok: true, ids: [WEEKLY.instanceId, DAILY.instanceId] });
    expect(parseInstanceIds(null)).toEqual({ ok: false, problem: 'none' });
    expect(parseInstanceIds(' , ')).toEqual({ ok: false, problem: 'none' });
    expect(parseInstanceIds(`${WEEKLY.instanceId},abc`)).toEqual({ ok: false, problem: 'invalid' });
    const many = Array.from({ length: 51 }, (_, index) => `slg-${String(index).padStart(10, '0')}`);
    expect(parseInstanceIds(many.slice(0, 50).join(','))).toMatchObject({ ok: true });
    expect(parseInstanceIds(many.join(','))).toEqual({ ok: false, problem: 'tooMany' });
  });

  it('groups renewable packages by unit and gives each other instance its reason', () => {
    const found = new Map<string, InstanceView | null>(INSTANCES.map((instance) => [instance.instanceId, instance]));
    found.set(GONE, null);
    const plan = planRenewal([USAGE.instanceId, WEEKLY.instanceId, GONE, DAILY.instanceId, RESETTING.instanceId, WEEKLY_2.instanceId], found);
    expect(plan.groups.map((group) => [group.key, group.instances.map((instance) => instance.name)])).toEqual([
      ['week', ['包周机', '包周机二号']],
      ['day', ['包日机']],
    ]);
    expect(plan.refused.map((entry) => [entry.instanceId, entry.reason])).toEqual([
      [USAGE.instanceId, 'usage'],
      [GONE, 'missing'],
      [RESETTING.instanceId, 'state'],
    ]);
  });
});

describe('续费 page', () => {
  it('one package: its ends, duration and voucher; pays exactly the priced body and goes back to the list with a toast', async () => {
    const fetched = api({ 'POST /rental/renew': () => ok({ orderIds: ['R1'] }) });
    const { router } = renderPage(<RenewPage />, pathFor(WEEKLY.instanceId));
    await screen.findByText('包周机', { selector: 'strong' });
    const line = lineOf('包周机');
    expect(within(line).getByText('包周 · RTX 4090 × 2 · slg-wwwwwwwwww')).toBeTruthy();
    expect(within(line).getByText(dayjs(WEEKLY.expiresAt).format(FORMAT))).toBeTruthy();
    expect(await within(line).findByText(dayjs(Date.parse(WEEKLY.expiresAt ?? '') + 7 * DAY).format(FORMAT))).toBeTruthy();
    // 原价 and 应付, and the button naming it.
    expect(await screen.findAllByText('¥1,108.80')).toHaveLength(2);
    const first = await waitFor(() => buttonByText('确认续费 ¥1,108.80'));
    expect(first).toBeTruthy();

    await choose('续费时长', '3 周');
    expect(await within(line).findByText(dayjs(Date.parse(WEEKLY.expiresAt ?? '') + 21 * DAY).format(FORMAT))).toBeTruthy();
    await choose('代金券', '续费立减券（抵扣 ¥10.00）');
    expect(await screen.findByText('-¥10.00')).toBeTruthy();
    expect(screen.getByText('¥3,316.40')).toBeTruthy();
    const confirm = await waitFor(() => buttonByText('确认续费 ¥3,316.40'));
    await waitFor(() => expect(confirm.disabled).toBe(false));
    // What is priced last is what is paid.
    const priced = bodiesOf(fetched.fetchMock, 'POST', '/rental/renew/prepay').at(-1);
    expect(priced).toEqual({ instanceIds: [WEEKLY.instanceId], rentAmount: 3, voucherId: 9 });
    fireEvent.click(confirm);

    await waitFor(() => expect(callsTo(fetched.fetchMock, 'POST', '/rental/renew')).toHaveLength(1));
    expect(bodiesOf(fetched.fetchMock, 'POST', '/rental/renew')).toEqual([priced]);
    const headers = new Headers(callsTo(fetched.fetchMock, 'POST', '/rental/renew')[0]?.[1]?.headers);
    expect(headers.get(IDEMPOTENCY_HEADER)).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    expect(await screen.findByText(`续费成功，到期时间 ${dayjs(Date.parse(WEEKLY.expiresAt ?? '') + 21 * DAY).format(FORMAT)}`)).toBeTruthy();
  });

  it('a batch of one package: each with its amount and new end, the total, no voucher; the rest listed with why they cannot be renewed', async () => {
    const fetched = api({ 'POST /rental/renew': () => ok({ orderIds: ['R1', 'R2'] }) });
    const { router } = renderPage(<RenewPage />, pathFor(WEEKLY.instanceId, USAGE.instanceId, WEEKLY_2.instanceId, GONE, RESETTING.instanceId));
    expect(await screen.findByText('续费实例（2 台）')).toBeTruthy();
    expect(await within(lineOf('包周机')).findByText('¥1,108.80')).toBeTruthy();
    expect(within(lineOf('包周机二号')).getByText('¥554.40')).toBeTruthy();
    expect(within(lineOf('包周机二号')).getByText(dayjs(Date.parse(WEEKLY_2.expiresAt ?? '') + 7 * DAY).format(FORMAT))).toBeTruthy();
    expect(screen.getByText('合计应付（2 台）')).toBeTruthy();
    // 原价 and 合计应付.
    expect(screen.getAllByText('¥1,663.20')).toHaveLength(2);
    expect(screen.getByText('多台一起续费不能使用代金券；如需使用代金券，请逐台续费。')).toBeTruthy();
    expect(screen.queryByLabelText('代金券')).toBeNull();

    const refused = screen.getByRole('list', { name: '不能续费的实例（3 台）' });
    expect(within(refused).getByText('按量计费，无需续费；如需包日、包周、包月，请转包年包月')).toBeTruthy();
    expect(within(refused).getByText(GONE)).toBeTruthy();
    expect(within(refused).getByText('实例不存在或已释放')).toBeTruthy();
    expect(within(refused).getByText('实例当前「重置中」，不能续费')).toBeTruthy();
    expect(within(refused).getByRole('link', { name: '转包年包月' }).getAttribute('href')).toBe(`/ctrl-container-instances/yearMonthPackages?instanceId=${USAGE.instanceId}`);

    await choose('续费时长', '2 周');
    fireEvent.click(await waitFor(() => buttonByText('确认续费 ¥3,326.40')));
    await waitFor(() => expect(callsTo(fetched.fetchMock, 'POST', '/rental/renew')).toHaveLength(1));
    expect(bodiesOf(fetched.fetchMock, 'POST', '/rental/renew')).toEqual([{ instanceIds: [WEEKLY.instanceId, WEEKLY_2.instanceId], rentAmount: 2 }]);
    expect(bodiesOf(fetched.fetchMock, 'POST', '/rental/renew/prepay').at(-1)).toEqual({ instanceIds: [WEEKLY.instanceId, WEEKLY_2.instanceId], rentAmount: 2 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-container-instances/containerInstances'));
    expect(await screen.findByText('已续费 2 台实例')).toBeTruthy();
  });

  it('packages of different units are not renewed together: it says so and links each unit on its own', async () => {
    const fetched = api();
    renderPage(<RenewPage />, pathFor(WEEKLY.instanceId, DAILY.instanceId, WEEKLY_2.instanceId));
    expect(await screen.findByText('所选实例的计费周期不同，不能一起续费')).toBeTruthy();
    expect(screen.getByRole('link', { name: '续费包周实例（2 台）' }).getAttribute('href')).toBe(pathFor(WEEKLY.instanceId, WEEKLY_2.instanceId));
    expect(screen.getByRole('link', { name: '续费包日实例（1 台）' }).getAttribute('href')).toBe(pathFor(DAILY.instanceId));
    expect(screen.queryByText(/^确认续费/)).toBeNull();
    expect(callsTo(fetched.fetchMock, 'POST', '/rental/renew/prepay')).toHaveLength(0);
  });

  it('a refused payment is shown once, on the page, and it stays there', async () => {
    const refusal = '余额不足：需支付 ¥1,108.80，当前余额 ¥5.00';
    const fetched = api({ 'POST /rental/renew': () => failure(402, 40200, refusal) }, 500);
    const { router } = renderPage(<RenewPage />, pathFor(WEEKLY.instanceId));
    // Short of money: said, with the way to 去充值.
    expect(await screen.findByText('余额不足：需支付 ¥1,108.80，当前余额 ¥5.00')).toBeTruthy();
    expect(screen.getByRole('link', { name: '去充值' })).toBeTruthy();
    const confirm = await waitFor(() => buttonByText('确认续费 ¥1,108.80'));
    await waitFor(() => expect(confirm.disabled).toBe(false));
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.getAllByText(refusal)).toHaveLength(2));
    expect(screen.getAllByText(refusal).filter((element) => element.closest('.ant-alert-error'))).toHaveLength(1);
    await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 10)));
    expect(fetched.notify).not.toHaveBeenCalled();
    expect(router.state.location.pathname).toBe('/ctrl-container-instances/renew');
  });

  it('a refused price is shown in place with 重试, and nothing can be paid', async () => {
    let refuse = true;
    const fetched = api({ 'POST /rental/renew/prepay': (url, init) => (refuse ? failure(409, 40900, '实例「包周机」所在主机已下架，无法续费') : renewPrepay(url, init)) });
    renderPage(<RenewPage />, pathFor(WEEKLY.instanceId));
    expect(await screen.findByText('实例「包周机」所在主机已下架，无法续费')).toBeTruthy();
    expect(buttonByText('确认续费').disabled).toBe(true);
    expect(fetched.notify).not.toHaveBeenCalled();
    refuse = false;
    fireEvent.click(buttonByText('重试'));
    expect(await waitFor(() => buttonByText('确认续费 ¥1,108.80'))).toBeTruthy();
  });

  it('nothing renewable: says so with the way back and each reason', async () => {
    api();
    renderPage(<RenewPage />, pathFor(USAGE.instanceId, GONE));
    expect(await screen.findByText('所选实例都不能续费')).toBeTruthy();
    expect(screen.getByRole('link', { name: '返回实例列表' }).getAttribute('href')).toBeTruthy();
    expect(screen.getByText('实例不存在或已释放')).toBeTruthy();
    expect(screen.queryByText(/^确认续费/)).toBeNull();
  });

  it('a broken link says what is wrong and leads back to the list', async () => {
    for (const [path, text] of [
      ['/ctrl-container-instances/renew', '链接中没有要续费的实例'],
      [pathFor(WEEKLY.instanceId, 'not-an-id'), '链接中的实例ID不正确'],
    ] as const) {
      const fetched = api();
      renderPage(<RenewPage />, path);
      expect(await screen.findByText(text)).toBeTruthy();
      const back = screen.getAllByRole('link', { name: '返回实例列表' });
      expect(back.map((link) => link.getAttribute('href'))).toContain('/ctrl-container-instances/containerInstances');
      expect(callsTo(fetched.fetchMock, 'GET', '/rental/detail')).toHaveLength(0);
      cleanup();
    }
  });

  it('a failed load offers 重试 and then shows the instances', async () => {
    let down = true;
    api({ 'GET /rental/detail': () => (down ? failure(500, 50000, '服务器开小差了') : ok(WEEKLY)) });
    renderPage(<RenewPage />, pathFor(WEEKLY.instanceId));
    expect(await screen.findByText('实例加载失败')).toBeTruthy();
    expect(screen.getByText('服务器开小差了')).toBeTruthy();
    down = false;
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByText('续费实例（1 台）')).toBeTruthy();
  });
});
