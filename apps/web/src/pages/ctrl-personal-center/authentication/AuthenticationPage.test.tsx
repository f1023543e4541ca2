/** 实名认证: the three kinds with their status, the reason of a rejection, the gate notice, live updates while 审核中. */
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VERIFICATION_POLL_MS } from '../../../api/verification';
import { buttonByText, callsTo, failure, mockApi, ok, pending, renderPage } from '../../ctrl-cost-center/testing';
import AuthenticationPage from './index';
import { NOTHING, PERSON_PENDING, STUDENT_REJECTED } from './testing';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const cardOf = (title: string) => screen.getByRole('heading', { name: title }).closest('.slg-verify-card') as HTMLElement;

describe('实名认证', () => {
  it('shows 未认证 with a way to each form when nothing was submitted, and no gate notice when it is optional', async () => {
    mockApi({ 'GET /verification/status': () => ok(NOTHING) });
    renderPage(<AuthenticationPage />, '/x');
    await screen.findByRole('heading', { name: '个人认证' });
    for (const [title, path] of [
      ['个人认证', '/ctrl-personal-center/personal-center/person-page'],
      ['企业认证', '/ctrl-personal-center/personal-center/enter-page'],
      ['学生认证', '/ctrl-personal-center/personal-center/edu-page'],
    ] as const) {
      const card = cardOf(title);
      expect(within(card).getByText('未认证')).toBeTruthy();
      expect(within(card).getByRole('link', { name: `立即认证：${title}` }).getAttribute('href')).toBe(path);
    }
    expect(screen.queryByText('创建实例需要实名认证')).toBeNull();
    expect(within(cardOf('学生认证')).getByRole('link', { name: '学生与学校认证说明' }).getAttribute('href')).toBe('/ctrl-personal-center/personal-center/school-page');
  });

  it('renders each status: 审核中 with the masked number, 未通过 with its reason and 重新认证, the enterprise kind blocked by a personal one', async () => {
    mockApi({ 'GET /verification/status': () => ok({ ...NOTHING, required: true, person: PERSON_PENDING, student: STUDENT_REJECTED }) });
    renderPage(<AuthenticationPage />, '/x');
    expect(await screen.findByText('创建实例需要实名认证')).toBeTruthy();
    expect(screen.getByText(/创建实例前需要先完成实名认证/)).toBeTruthy();

    const person = cardOf('个人认证');
    expect(within(person).getByText('审核中', { selector: '.ant-tag' })).toBeTruthy();
    expect(within(person).getByText('1101**********002X')).toBeTruthy();
    expect(within(person).getByText('*三')).toBeTruthy();
    expect(within(person).getByText(/审核中，结果出来后本页自动更新/)).toBeTruthy();
    expect(within(person).queryByRole('link')).toBeNull();

    const student = cardOf('学生认证');
    expect(within(student).getByText('未通过')).toBeTruthy();
    expect(within(student).getByText('未通过原因：学生证照片不清晰')).toBeTruthy();
    expect(within(student).getByRole('link', { name: '重新认证：学生认证' }).getAttribute('href')).toBe('/ctrl-personal-center/personal-center/edu-page');
    expect(within(student).getByText('card.png')).toBeTruthy();

    const enterprise = cardOf('企业认证');
    expect(within(enterprise).getByText('未认证')).toBeTruthy();
    expect(within(enterprise).getByText('账号已提交个人认证，不能再进行企业认证')).toBeTruthy();
    expect(within(enterprise).queryByRole('link', { name: /立即认证/ })).toBeNull();
  });

  it('reads the status again while a request is under review and shows the decision by itself', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let decided = false;
    const api = mockApi({
      'GET /verification/status': () =>
        ok(decided ? { ...NOTHING, verified: true, person: { ...PERSON_PENDING, status: 'APPROVED', decidedAt: '2026-06-01T03:00:00Z' } } : { ...NOTHING, person: PERSON_PENDING }),
    });
    renderPage(<AuthenticationPage />, '/x');
    expect(await screen.findByText('审核中，结果出来后本页自动更新')).toBeTruthy();
    decided = true;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(VERIFICATION_POLL_MS + 100);
    });
    expect(await screen.findByText('您的账号已完成实名认证')).toBeTruthy();
    expect(within(cardOf('个人认证')).getByText('已认证')).toBeTruthy();
    const reads = callsTo(api.fetchMock, 'GET', '/verification/status').length;
    // Nothing is pending any more: no further reads.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(VERIFICATION_POLL_MS * 3);
    });
    expect(callsTo(api.fetchMock, 'GET', '/verification/status')).toHaveLength(reads);
  });

  it('shows loading, then an error with 重试', async () => {
    mockApi({ 'GET /verification/status': pending });
    const { container } = renderPage(<AuthenticationPage />, '/x');
    expect(container.querySelector('.ant-skeleton')).toBeTruthy();
    cleanup();

    let calls = 0;
    mockApi({
      'GET /verification/status': () => {
        calls += 1;
        return calls === 1 ? failure(500, 50000, '数据库连接失败') : ok(NOTHING);
      },
    });
    renderPage(<AuthenticationPage />, '/x');
    expect(await screen.findByText('认证状态加载失败')).toBeTruthy();
    fireEvent.click(buttonByText('重试'));
    expect(await screen.findByRole('heading', { name: '个人认证' })).toBeTruthy();
  });
});
