/**
 * Thin loaders of the vendor captchas (HUMAN_CHECK_PROVIDER=aliyun|tencent): their script is fetched
 * only when the server asks for a check and names that vendor. Each resolves with the string the
 * server verifies (Aliyun's CaptchaVerifyParam, Tencent's {ticket, randstr}), or null when closed.
 */

const ALIYUN_SCRIPT = 'https://o.alicdn.com/captcha-frontend/aliyunCaptcha/AliyunCaptcha.js';
const TENCENT_SCRIPT = 'https://turing.captcha.qcloud.com/TJCaptcha.js';

const loaded = new Map<string, Promise<void>>();

/** Adds a vendor script once; a failed load can be tried again. */
export function loadScript(src: string): Promise<void> {
  const existing = loaded.get(src);
  if (existing) return existing;
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      loaded.delete(src);
      script.remove();
      reject(new Error(`failed to load ${src}`));
    };
    document.head.appendChild(script);
  });
  loaded.set(src, loading);
  return loading;
}

interface AliyunCaptchaWindow {
  AliyunCaptchaConfig?: { region: string; prefix: string };
  initAliyunCaptcha?: (options: {
    SceneId: string;
    mode: 'embed' | 'popup';
    element: string;
    button: string;
    success: (captchaVerifyParam: string) => void;
    fail?: (result: unknown) => void;
    getInstance?: (instance: unknown) => void;
    language?: string;
  }) => void;
}

/** Aliyun Captcha 2.0 embedded in `container` (which needs an id); resolves with CaptchaVerifyParam. */
export async function runAliyunCaptcha(
  container: HTMLElement,
  config: { prefix: string; sceneId: string; region: 'cn' | 'sgp' },
): Promise<string> {
  const target = window as unknown as AliyunCaptchaWindow;
  target.AliyunCaptchaConfig = { region: config.region, prefix: config.prefix };
  await loadScript(ALIYUN_SCRIPT);
  const init = target.initAliyunCaptcha;
  if (!init) throw new Error('AliyunCaptcha did not load');
  const button = document.createElement('button');
  button.type = 'button';
  button.id = `${container.id}-trigger`;
  button.hidden = true;
  container.after(button);
  return new Promise<string>((resolve) => {
    init({
      SceneId: config.sceneId,
      mode: 'embed',
      element: `#${container.id}`,
      button: `#${button.id}`,
      language: 'cn',
      success: (captchaVerifyParam) => resolve(captchaVerifyParam),
    });
  });
}

interface TencentCaptchaResult {
  ret: number;
  ticket?: string;
  randstr?: string;
}

type TencentCaptchaConstructor = new (
  appId: string,
  callback: (result: TencentCaptchaResult) => void,
  options?: Record<string, unknown>,
) => { show: () => void; destroy?: () => void };

/** Tencent's own popup; resolves with the JSON {ticket, randstr}, or null when the person closed it. */
export async function runTencentCaptcha(config: { captchaAppId: string }): Promise<string | null> {
  await loadScript(TENCENT_SCRIPT);
  const TencentCaptcha = (window as unknown as { TencentCaptcha?: TencentCaptchaConstructor }).TencentCaptcha;
  if (!TencentCaptcha) throw new Error('TencentCaptcha did not load');
  return new Promise<string | null>((resolve) => {
    const captcha = new TencentCaptcha(config.captchaAppId, (result) => {
      resolve(result.ret === 0 && result.ticket && result.randstr ? JSON.stringify({ ticket: result.ticket, randstr: result.randstr }) : null);
    });
    captcha.show();
  });
}
