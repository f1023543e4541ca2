/** 学生认证 (edu-page) and its landing 学校认证 (school-page). */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buttonByText, callsTo, failure, mockApi, ok, renderPage } from '../../ctrl-cost-center/testing';
import { ENTERPRISE_APPROVED, NOTHING, STUDENT_REJECTED } from '../authentication/testing';
import SchoolPage from '../school-page/index';
import EduPage from './index';

afterEach(() => cleanup());

function fill(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

const CARD = { id: 52, purpose: 'STUDENT_CARD', fileName: 'card.png', contentType: 'image/png', size: 4096, createdAt: '2026-06-01T02:00:00Z' };

describe('学生认证', () => {
  it('uploads the card as STUDENT_CARD and sends name, school, number and card; a taken number goes under 学号', async () => {
    const api = mockApi({
      'GET /verification/status': () => ok(NOTHING),
      'POST /user/upload/private': () => ok(CARD),
      'POST /verification/student': () => failure(409, 40950, '该学校的这个学号已被其他账号认证或正在审核'),
    });
    renderPage(<EduPage />, '/x');
    await screen.findByLabelText('学号');
    fill('真实姓名', '孙七');
    fill('学校名称', ' 北京大学 ');
    fill('学号', '学号12');
    expect(await screen.findByText('学号应为4-32位字母、数字或短横线')).toBeTruthy();
    fill('学号', '2023123456');
    const input = document.querySelector('.slg-credential input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(4096)], 'card.png', { type: 'image/png' })] } });
    expect(await screen.findByText('card.png')).toBeTruthy();
    expect((callsTo(api.fetchMock, 'POST', '/user/upload/private')[0]?.[1]?.body as FormData).get('purpose')).toBe('STUDENT_CARD');
    fireEvent.click(screen.getByLabelText(/本人承诺/));
    await waitFor(() => expect(buttonByText('提交认证').disabled).toBe(false));
    fireEvent.click(buttonByText('提交认证'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/verification/student')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/verification/student')[0]?.[1]?.body))).toEqual({
      realName: '孙七',
      school: '北京大学',
      studentNo: '2023123456',
      cardUploadId: 52,
    });
    expect(await screen.findByText('该学校的这个学号已被其他账号认证或正在审核')).toBeTruthy();
  });
});

describe('学校认证', () => {
  it('explains student verification with its status and the way to the form, and sends institutions to 企业认证', async () => {
    mockApi({ 'GET /verification/status': () => ok({ ...NOTHING, student: STUDENT_REJECTED }) });
    renderPage(<SchoolPage />, '/x');
    expect(await screen.findByText('未通过')).toBeTruthy();
    expect(screen.getByRole('link', { name: '重新提交学生认证' }).getAttribute('href')).toBe('/ctrl-personal-center/personal-center/edu-page');
    expect(screen.getByRole('link', { name: '进行机构（企业）认证' }).getAttribute('href')).toBe('/ctrl-personal-center/personal-center/enter-page');
    cleanup();

    mockApi({ 'GET /verification/status': () => ok({ ...NOTHING, verified: true, enterprise: ENTERPRISE_APPROVED }) });
    renderPage(<SchoolPage />, '/x');
    expect(await screen.findByText('账号已提交企业认证，不能再进行此认证')).toBeTruthy();
    expect(screen.queryByRole('link', { name: '开始学生认证' })).toBeNull();
  });
});
