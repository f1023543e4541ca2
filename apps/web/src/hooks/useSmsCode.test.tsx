import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '../api/client';
import { SmsCodeField } from '../components/SmsCodeField';
import { TelephoneField } from '../components/TelephoneField';
import { smsCodeRules, telephoneRules } from '../forms/rules';
import { useForm } from '../forms/useForm';
import { useFormSmsCode } from './useFormSmsCode';

// The real widget needs Web Workers and Web Crypto in a browser; its lazy module is replaced here and
// the test plays the widget's part by firing its `verified` event.
const altchaModuleLoaded = vi.fn();
vi.mock('../components/altchaWidget', () => {
  altchaModuleLoaded();
  return { ALTCHA_LANGUAGE: 'zh-cn' };
});

const SEND_FIELDS = { 40000: 'telephone', 42901: 'telephone', 42902: 'telephone' } as const;

function Harness() {
  const form = useForm({ name: 'sms', initialValues: { telephone: '', code: '' }, rules: { telephone: telephoneRules, code: smsCodeRules } });
  const sms = useFormSmsCode(form, 'login', SEND_FIELDS);
  return (
    <form>
      <TelephoneField form={form} autoComplete="tel-national" />
      <SmsCodeField form={form} sms={sms} />
    </form>
  );
}

const envelope = (status: number, code: number, result: unknown, rspmsg = 'success', headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ rspcode: code, code: code === 0 ? 200 : code, rspmsg, result }), { status, headers });

const challenge = { provider: 'altcha', altcha: { parameters: { algorithm: 'PBKDF2/SHA-256', nonce: 'ab', salt: 'cd' }, signature: 'sig' } };

// The first render in a test file is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

describe('sending an SMS code', () => {
  const fetchMock = vi.fn<typeof fetch>();
  const notify = vi.fn<(text: string) => void>();

  beforeEach(() => {
    fetchMock.mockReset();
    notify.mockReset();
    altchaModuleLoaded.mockClear();
    configureApiClient({
      fetch: fetchMock,
      notify,
      onUnauthorized: () => undefined,
      session: { getToken: () => null, getRefreshToken: () => null, setTokens: () => undefined },
    });
  });
  afterEach(() => cleanup());

  async function requestCode(phone = '+86 138 0013 8001') {
    render(<Harness />);
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: phone } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    });
  }

  const urlOf = (call: number) => new URL(String(fetchMock.mock.calls[call]?.[0]), 'http://localhost');

  it('asks for the human check when the server wants one, then sends again with its solution', async () => {
    fetchMock
      .mockResolvedValueOnce(envelope(428, 42800, null, '当前网络获取验证码次数较多，请先完成人机验证'))
      .mockResolvedValueOnce(envelope(200, 0, challenge))
      .mockResolvedValueOnce(envelope(200, 0, { expiresIn: 300, resendAfter: 45 }));
    await requestCode();

    expect(await screen.findByText('安全验证')).toBeTruthy();
    const widget = await waitFor(() => {
      const element = document.querySelector('altcha-widget');
      if (!element) throw new Error('no widget yet');
      return element;
    });
    expect(altchaModuleLoaded).toHaveBeenCalledTimes(1);
    expect(JSON.parse(widget.getAttribute('configuration') ?? '{}')).toMatchObject({ challenge: challenge.altcha });
    expect(urlOf(0).searchParams.get('telephone')).toBe('13800138001');
    expect(urlOf(1).pathname).toBe('/api/v1/captcha/challenge');

    await act(async () => {
      widget.dispatchEvent(new CustomEvent('verified', { detail: { payload: 'c29sdmVk' } }));
    });
    // The server's resendAfter, less the seconds this busy test machine took since.
    const waiting = await screen.findByRole('button', { name: /\d+秒后重新获取/ });
    const seconds = Number(/(\d+)秒/.exec(waiting.textContent ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(30);
    expect(seconds).toBeLessThanOrEqual(45);
    const retried = urlOf(2);
    expect(retried.pathname).toBe('/api/v1/smscode/phone');
    expect(retried.searchParams.get('captcha')).toBe('c29sdmVk');
    expect(retried.searchParams.get('telephone')).toBe('13800138001');
    await new Promise((resolve) => setTimeout(resolve, 0));
    // The refusal that opened the dialog was not also a toast.
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows a fresh check when the solution was refused', async () => {
    fetchMock
      .mockResolvedValueOnce(envelope(428, 42800, null, '请先完成人机验证'))
      .mockResolvedValueOnce(envelope(200, 0, challenge))
      .mockResolvedValueOnce(envelope(400, 40012, null, '人机验证未通过或已失效，请重新验证'))
      .mockResolvedValueOnce(envelope(200, 0, challenge));
    await requestCode();
    const first = await waitFor(() => document.querySelector('altcha-widget') ?? Promise.reject(new Error('no widget')));
    await act(async () => {
      first.dispatchEvent(new CustomEvent('verified', { detail: { payload: 'old' } }));
    });
    expect(await screen.findByText('人机验证未通过，请重新验证')).toBeTruthy();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(4));
  });

  it('counts down the real seconds the server says are left', async () => {
    fetchMock.mockResolvedValueOnce(envelope(429, 42901, null, '验证码发送过于频繁，请37秒后再试', { 'retry-after': '37' }));
    await requestCode('13800138001');
    expect(await screen.findByRole('button', { name: /(37|36|35)秒后重新获取/ })).toBeTruthy();
    await waitFor(() => expect(document.querySelector('#telephone_help, [id$="telephone_help"]')?.textContent).toBe('验证码发送过于频繁，请37秒后再试'));
  });

  it('says minutes when the client address must wait for its hourly limit', async () => {
    fetchMock.mockResolvedValueOnce(envelope(429, 42905, null, '当前网络发送验证码过于频繁，请42分钟后再试', { 'retry-after': '2500' }));
    await requestCode('13800138001');
    expect(await screen.findByRole('button', { name: /42分钟后重新获取/ })).toBeTruthy();
  });
});
