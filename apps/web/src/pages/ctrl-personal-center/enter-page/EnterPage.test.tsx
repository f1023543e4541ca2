/** 企业认证: the credit code check, the licence upload (type and size before sending, the server's refusal under the field, 移除), the payload. */
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { buttonByText, callsTo, failure, mockApi, ok, renderPage } from '../../ctrl-cost-center/testing';
import { ENTERPRISE_APPROVED, NOTHING } from '../authentication/testing';
import EnterPage from './index';

afterEach(() => cleanup());

function fill(label: string, value: string) {
  const input = screen.getByLabelText(label);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

async function settle() {
  await act(async () => new Promise<void>((resolve) => setTimeout(resolve, 20)));
}

function choose(file: File) {
  const input = document.querySelector('.slg-credential input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

const UPLOADED = { id: 41, purpose: 'LICENCE', fileName: '营业执照.jpg', contentType: 'image/jpeg', size: 2048, createdAt: '2026-06-01T02:00:00Z' };
const jpeg = (name = '营业执照.jpg', size = 2048) => new File([new Uint8Array(size).fill(0xff)], name, { type: 'image/jpeg' });

describe('企业认证', () => {
  it('checks the credit code (GB 32100) before sending', async () => {
    mockApi({ 'GET /verification/status': () => ok(NOTHING) });
    renderPage(<EnterPage />, '/x');
    await screen.findByLabelText('统一社会信用代码');
    fill('统一社会信用代码', '91350100M000100Y44');
    expect(await screen.findByText('统一社会信用代码校验位不正确，请检查后重新输入')).toBeTruthy();
    fill('统一社会信用代码', '91350100M000100I43');
    expect(await screen.findByText('统一社会信用代码应为18位数字或大写字母（不含 I、O、S、V、Z）')).toBeTruthy();
    fill('统一社会信用代码', '91350100m000100y43');
    await waitFor(() => expect(screen.queryByText(/统一社会信用代码(校验位|应为)/)).toBeNull());
  });

  it('uploads the licence as LICENCE, shows its name, removes it, and sends the licence id with the form', async () => {
    const api = mockApi({
      'GET /verification/status': () => ok(NOTHING),
      'POST /user/upload/private': () => ok(UPLOADED),
      'POST /verification/enterprise': () => ok({ ...ENTERPRISE_APPROVED, status: 'PENDING', decidedAt: null }),
    });
    const { router } = renderPage(<EnterPage />, '/x');
    await screen.findByLabelText('单位名称');
    fill('单位名称', ' 福州测试科技有限公司 ');
    fill('统一社会信用代码', '9135 0100 M000 100Y43');
    fill('法定代表人（选填）', '王五');
    fireEvent.click(screen.getByLabelText(/本人承诺/));
    fireEvent.click(buttonByText('提交认证'));
    expect(await screen.findByText('请上传营业执照')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/verification/enterprise')).toHaveLength(0);

    choose(jpeg());
    expect(await screen.findByText('营业执照.jpg')).toBeTruthy();
    const sent = callsTo(api.fetchMock, 'POST', '/user/upload/private')[0]?.[1]?.body as FormData;
    expect(sent.get('purpose')).toBe('LICENCE');
    expect((sent.get('file') as File).name).toBe('营业执照.jpg');
    expect(screen.getByText('2.0 KB')).toBeTruthy();

    // 移除 is enabled once the upload has settled, a moment after its name shows.
    const remove = screen.getByRole('button', { name: '移除营业执照' }) as HTMLButtonElement;
    await waitFor(() => expect(remove.disabled).toBe(false));
    fireEvent.click(remove);
    expect(screen.queryByText('营业执照.jpg')).toBeNull();
    choose(jpeg());
    await screen.findByText('营业执照.jpg');

    // Submitting waits for the upload to settle too.
    await waitFor(() => expect(buttonByText('提交认证').disabled).toBe(false));
    fireEvent.click(buttonByText('提交认证'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/verification/enterprise')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(api.fetchMock, 'POST', '/verification/enterprise')[0]?.[1]?.body))).toEqual({
      enterpriseName: '福州测试科技有限公司',
      creditCode: '91350100M000100Y43',
      legalPerson: '王五',
      licenceUploadId: 41,
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/ctrl-personal-center/personal-center/authentication'));
  });

  it('refuses a file over 5 MB or of another type before sending, and shows the server refusal under the field', async () => {
    const api = mockApi({
      'GET /verification/status': () => ok(NOTHING),
      'POST /user/upload/private': () => failure(415, 41500, '仅支持 JPG、PNG 图片或 PDF 文件'),
    });
    renderPage(<EnterPage />, '/x');
    await screen.findByLabelText('单位名称');
    choose(jpeg('big.jpg', 5 * 1024 * 1024 + 1));
    expect(await screen.findByText('文件不能超过5MB，请压缩后重新上传')).toBeTruthy();
    choose(new File(['GIF89a'], 'licence.gif', { type: 'image/gif' }));
    expect(await screen.findByText('仅支持 JPG、PNG 图片或 PDF 文件')).toBeTruthy();
    expect(callsTo(api.fetchMock, 'POST', '/user/upload/private')).toHaveLength(0);

    // A file that claims to be a JPEG: the server reads the bytes and refuses; its reason goes under the field.
    choose(jpeg('fake.jpg'));
    await waitFor(() => expect(callsTo(api.fetchMock, 'POST', '/user/upload/private')).toHaveLength(1));
    expect(await screen.findByText('仅支持 JPG、PNG 图片或 PDF 文件')).toBeTruthy();
    await settle();
    expect(api.notify).not.toHaveBeenCalled();
    expect(screen.queryByText('fake.jpg')).toBeNull();
  });
});
