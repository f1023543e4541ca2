/** 个人认证: the shared ID checks before sending, the payload, server refusals on the field, the page when one is already live. */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { verificationKeys, type VerificationStatusDto } from '../../../api/verification';
import { buttonByText, callsTo, failure, mockApi, ok, renderPage } from '../../ctrl-cost-center/testing';
import { ENTERPRISE_APPROVED, NOTHING, PERSON_PENDING } from '../authentication/testing';
import PersonPage from './index';

afterEach(() => cleanup());

function fill(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function settle() {
  await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 20)));
}

const bodyOf = (fetchMock: Parameters<typeof callsTo>[0]) => JSON.parse(String(callsTo(fetchMock, 'POST', '/verification/person')[0]?.[1]?.body)) as unknown;

describe('个人认证', () => {
  it('checks the ID number as the server does: a wrong check character, a date that does not exist, 17 digits — nothing is sent', async () => {
    const api = mockApi({ 'GET /verification/status': () => ok(NOTHING) });
    renderPage(<PersonPage />, '/x');
    await screen.findByLabelText('身份证号');
    fill('真实姓名', '张三');
    for (const [value, message] of [
      ['110105194912310021', '身份证号校验位不正确，请检查后重新输入'],
      ['110105199902300007', '身份证号中的出生日期不存在，请检查后重新输入'],
      ['11010519491231002', '身份证号应为18位：前17位为数字，最后一位为数字或X'],
      ['990105199001011236', '身份证号前两位地区码不正确，请检查后重新输入'],
    ] as const) {
      fill('身份证号', value);
      expect(await screen.findByText(message)).toBeTruthy();
    }
    fireEvent.click(screen.getByLabelText(/本人承诺/));
    fireEvent.click(buttonByText('提交认证'));
    await settle();
    expect(callsTo(api.fetchMock, 'POST', '/verification/person')).toHaveLength(0);
    fill('真实姓名', '张3');
    expect(await screen.findByText('真实姓名应为2-30个汉字或字母，少数民族姓名可含间隔号“·”')).toBeTruthy();
  });

  it('sends the normalised name and number, then shows 审核中 on the overview', async () => {
    let submitted = false;
    const api = mockApi({
      'GET /verification/status': () => ok(submitted ? { ...NOTHING, person: PERSON_PENDING } : NOTHING),
      'POST /verification/person': () => {
        submitted = true;
        return ok(PERSON_PENDING);
      },
    });
    const { router, queryClient } = renderPage(<PersonPage />, '/x');
    await screen.findByLabelText('身份证号');
    fill('真实姓名', ' 张三 ');
    fill('身份证号', '1101 0519 4912 3100 2x');
    fireEvent.click(buttonByText('提交认证'));
    // The consent is required.
    expect(await screen.findByText('请先确认信息真实有效')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/verification/person')).toHaveLength(0);
    fireEvent.click(screen.getByLabelText(/本人承诺/));
    fireEvent.click(buttonByText('提交认证'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/verification/person')).toHaveLength(1));
    expect(bodyOf(api.fetchMock)).toEqual({ realName: '张三', idNumber: '11010519491231002X' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-personal-center/personal-center/authentication'));
    expect(queryClient.getQueryData<VerificationStatusDto>(verificationKeys.status())?.person?.status).toBe('PENDING');
  });

  it('puts 身份证号已被其他账号认证 under the field, without a toast, and keeps the button busy while sending', async () => {
    let answer: (response: Response) => void = () => undefined;
    const api = mockApi({
      'GET /verification/status': () => ok(NOTHING),
      'POST /verification/person': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    renderPage(<PersonPage />, '/x');
    await screen.findByLabelText('身份证号');
    fill('真实姓名', '张三');
    fill('身份证号', '11010519491231002X');
    fireEvent.click(screen.getByLabelText(/本人承诺/));
    fireEvent.click(buttonByText('提交认证'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/verification/person')).toHaveLength(1));
    const button = buttonByText('提交认证');
    expect(button.disabled).toBe(true);
    fireEvent.click(button);
    answer(failure(409, 40950, '该身份证号已被其他账号认证或正在审核，每个身份证号只能认证一个账号'));
    expect(await screen.findByText('该身份证号已被其他账号认证或正在审核，每个身份证号只能认证一个账号')).toBeTruthy();
    await settle();
    expect(api.notify).not.toHaveBeenCalled();
    expect(callsTo(api.fetchMock, 'POST', '/verification/person')).toHaveLength(1);
  });

  it('shows the request under review instead of the form, and the other kind of account standing in the way', async () => {
    mockApi({ 'GET /verification/status': () => ok({ ...NOTHING, person: PERSON_PENDING }) });
    renderPage(<PersonPage />, '/x');
    expect(await screen.findByText('您的个人认证正在审核中')).toBeTruthy();
    expect(screen.queryByLabelText('身份证号')).toBeNull();
    cleanup();

    mockApi({ 'GET /verification/status': () => ok({ ...NOTHING, verified: true, enterprise: ENTERPRISE_APPROVED }) });
    renderPage(<PersonPage />, '/x');
    expect(await screen.findByText('账号已提交企业认证，不能再进行此认证')).toBeTruthy();
    expect(screen.queryByLabelText('身份证号')).toBeNull();
    cleanup();

    mockApi({ 'GET /verification/status': () => ok({ ...NOTHING, person: { ...PERSON_PENDING, status: 'REJECTED', reason: '姓名与证件不符' } }) });
    renderPage(<PersonPage />, '/x');
    expect(await screen.findByText('上次提交未通过：姓名与证件不符。请修改后重新提交。')).toBeTruthy();
    expect(screen.getByLabelText('身份证号')).toBeTruthy();
  });
});
