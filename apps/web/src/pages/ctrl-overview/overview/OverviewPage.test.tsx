/** 总览 · 弹性部署: the running deployments, containers and cost per hour, shown only to who may open 弹性部署. */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubUserInfoDto } from '../../../api/user';
import { useUserStore } from '../../../stores/user';
import { callsTo, mockApi, ok, renderPage } from '../../ctrl-cost-center/testing';
import { OVERVIEW } from '../../ctrl-flexible-deployment/testing';
import OverviewPage from './index';

afterEach(() => {
  cleanup();
  useUserStore.getState().clear();
});

const SUB: SubUserInfoDto = {
  userId: 77,
  username: 'alice.dev',
  nickname: '小爱',
  accountType: 2,
  permissions: ['CONTAINER'],
  permissionLevels: { CONTAINER: 'SELF', ELASTIC: 'NONE', MIRROR: 'NONE', FILE_STORAGE: 'NONE', INVOICE: 'NONE', MODEL_DEPLOY: 'NONE' },
  sharedMainBalance: true,
  mainAccountId: 12,
  telephone: '',
  mainAccountBalance: 0,
  subAccountBalance: 0,
};

const routes = () =>
  mockApi({
    'POST /elastic/overview': () => ok(OVERVIEW),
    'GET /account/': () => ok({ totalBalance: 0 }),
    'GET /rental/summary': () => ok({ total: 0, byStatus: {}, runningCostPerHourFen: 0 }),
  });

describe('总览 · 弹性部署', () => {
  it('shows running deployments, containers and the cost per hour with a link to the list', async () => {
    routes();
    renderPage(<OverviewPage />, '/ctrl-overview/overview');
    const card = (await screen.findByRole('heading', { name: '弹性部署' })).closest('section') as HTMLElement;
    expect(await within(card).findByText('¥9.00/时')).toBeTruthy();
    expect(within(card).getByText('运行中的部署').nextElementSibling?.textContent).toBe('2');
    expect(within(card).getByText('运行中的容器').nextElementSibling?.textContent).toBe('5');
    expect(within(card).getByText('查看部署').closest('a')?.getAttribute('href')).toBe('/ctrl-flexible-deployment/flexiible-deployment/flexiible-deployment');
  });

  it('is left out, and not asked for, without the ELASTIC permission', async () => {
    const api = routes();
    useUserStore.getState().setSession({ jwtToken: 'jwt', refreshToken: 'refresh' }, 2);
    useUserStore.getState().setUserInfo({ kind: 'sub', info: SUB });
    renderPage(<OverviewPage />, '/ctrl-overview/overview');
    expect(await screen.findByRole('heading', { name: '容器实例' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: '弹性部署' })).toBeNull();
    expect(callsTo(api.fetchMock, 'POST', '/elastic/overview')).toHaveLength(0);
  });
});
