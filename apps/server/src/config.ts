import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { APP_TITLE_DEFAULT, HUMAN_CHECK_PROVIDERS, NO_GPU_PRICE_FEN_PER_HOUR, DISK_PRICE_FEN_PER_GB_DAY, type HumanCheckProviderName } from '@slg/shared';
import type { AlipayOptions } from './providers/payments/alipay.js';
import type { WechatPayOptions } from './providers/payments/wechatpay.js';
import type { NoticeTemplateIds, SmsNoticeKind } from './providers/sms/notices.js';

const SMS_PROVIDERS = ['console', 'aliyun', 'tencent'] as const;
// docs/compute.md: `sim` is the embedded default, `docker` runs instances as containers on Docker hosts,
// `kubernetes` as StatefulSets on a cluster's GPU nodes.
const COMPUTE_DRIVERS = ['sim', 'docker', 'kubernetes'] as const;
/** The platform's base image that `npm run images` builds (Debian with sshd and python3). */
export const DEFAULT_BASE_IMAGE = 'slg/base:bookworm';
/** What the Kubernetes driver's save-image Job builds with (K8S_IMAGE_BUILDER): kaniko's executor. */
export const DEFAULT_IMAGE_BUILDER = 'gcr.io/kaniko-project/executor:v1.23.2';
const PAYMENT_PROVIDERS = ['sandbox', 'wechatpay', 'alipay', 'bank'] as const;
const ALIYUN_CAPTCHA_REGIONS = ['cn', 'sgp'] as const;

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./.data'),
  STORAGE_ROOT: optionalText,
  K8S_STORAGE_CLAIM: optionalText,
  MODELS_DIR: optionalText,
  MODEL_FREE_TOKENS: z.coerce.number().int().min(0).max(1_000_000_000).default(100_000),
  MODEL_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(60),
  MODEL_TOKENS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000_000).default(200_000),
  LOCAL_ENGINE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  LOCAL_ENGINE_QUEUE: z.coerce.number().int().min(0).max(10_000).default(16),
  DATABASE_URL: optionalText,
  JWT_SECRET: optionalText,
  PUBLIC_URL: optionalText,
  APP_TITLE: z.string().default(APP_TITLE_DEFAULT),
  COMPUTE_DRIVER: z.enum(COMPUTE_DRIVERS, { error: 'COMPUTE_DRIVER 只能是 sim（模拟 GPU 集群）、docker（Docker 主机）或 kubernetes（Kubernetes 集群）' }).default('sim'),
  DOCKER_HOST: optionalText,
  DOCKER_GPUS: z.coerce.number().int().min(0).max(64).optional(),
  DOCKER_ZONE: optionalText,
  DOCKER_GPU_MODEL: optionalText,
  DOCKER_PUBLIC_ADDRESS: optionalText,
  DOCKER_SSH_PORTS: z
    .string()
    .regex(/^\d{1,5}-\d{1,5}$/, { error: 'DOCKER_SSH_PORTS 的格式为 起始端口-结束端口，例如 20000-29999' })
    .default('20000-29999'),
  DOCKER_BASE_IMAGE: z.string().default(DEFAULT_BASE_IMAGE),
  REGISTRY_URL: optionalText,
  K8S_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, { error: 'K8S_NAMESPACE 须是合法的 Kubernetes 命名空间名（小写字母、数字和连字符）' })
    .default('slg-instances'),
  K8S_STORAGE_CLASS: optionalText,
  K8S_SERVICE_TYPE: z.enum(['NodePort', 'LoadBalancer'], { error: 'K8S_SERVICE_TYPE 只能是 NodePort 或 LoadBalancer' }).default('NodePort'),
  K8S_IMAGE_BUILDER: z.string().default(DEFAULT_IMAGE_BUILDER),
  K8S_NODE_PORTS: z
    .string()
    .regex(/^\d{1,5}-\d{1,5}$/, { error: 'K8S_NODE_PORTS 的格式为 起始端口-结束端口，例如 30000-32767' })
    .default('30000-32767'),
  SIM_CREATE_SECONDS: z.coerce.number().min(0).max(600).default(4),
  SIM_START_SECONDS: z.coerce.number().min(0).max(600).default(2),
  SIM_STOP_SECONDS: z.coerce.number().min(0).max(600).default(2),
  SIM_DESTROY_SECONDS: z.coerce.number().min(0).max(600).default(2),
  SIM_REINSTALL_SECONDS: z.coerce.number().min(0).max(600).default(6),
  SIM_SAVE_IMAGE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /** How long a simulated machine's command (an elastic container's) runs before it exits. */
  SIM_JOB_SECONDS: z.coerce.number().min(0).max(86_400).default(5),
  NO_GPU_PRICE_FEN: z.coerce.number().int().min(1).max(100_000).default(NO_GPU_PRICE_FEN_PER_HOUR),
  DISK_PRICE_FEN_PER_GB_DAY: z.coerce.number().int().min(0).max(10_000).default(DISK_PRICE_FEN_PER_GB_DAY),
  SSH_HOST: optionalText,
  SMS_PROVIDER: z.enum(SMS_PROVIDERS).optional(),
  PAYMENT_PROVIDERS: z.string().optional(),
  PROMETHEUS_URL: optionalText,
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN 至少 16 个字符').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).default(15 * 60),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).default(30),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  TRUST_PROXY: optionalText,
  SMS_SENDS_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).default(20),
  HUMAN_CHECK_AFTER_CLIENT_SENDS_PER_HOUR: z.coerce.number().int().min(0).default(3),
  HUMAN_CHECK_AFTER_PHONE_SENDS_PER_DAY: z.coerce.number().int().min(0).default(2),
  HUMAN_CHECK_PROVIDER: z.enum(HUMAN_CHECK_PROVIDERS).default('altcha'),
  ALTCHA_COST: z.coerce.number().int().min(1).default(1000),
  ALTCHA_COUNTER_MAX: z.coerce.number().int().min(2).max(2 ** 32 - 1).default(6000),
  ALIYUN_CAPTCHA_ACCESS_KEY_ID: optionalText,
  ALIYUN_CAPTCHA_ACCESS_KEY_SECRET: optionalText,
  ALIYUN_CAPTCHA_SCENE_ID: optionalText,
  ALIYUN_CAPTCHA_PREFIX: optionalText,
  ALIYUN_CAPTCHA_REGION: z.enum(ALIYUN_CAPTCHA_REGIONS).default('cn'),
  TENCENT_CAPTCHA_SECRET_ID: optionalText,
  TENCENT_CAPTCHA_SECRET_KEY: optionalText,
  TENCENT_CAPTCHA_APP_ID: optionalText,
  TENCENT_CAPTCHA_APP_SECRET_KEY: optionalText,
  WEB_DIST_DIR: optionalText,
  OPERATOR_TELEPHONES: z.string().optional(),
  WECHATPAY_APP_ID: optionalText,
  WECHATPAY_MCH_ID: optionalText,
  WECHATPAY_SERIAL_NO: optionalText,
  WECHATPAY_PRIVATE_KEY: optionalText,
  WECHATPAY_API_V3_KEY: optionalText,
  WECHATPAY_PLATFORM_PUBLIC_KEY: optionalText,
  WECHATPAY_PLATFORM_SERIAL_NO: optionalText,
  ALIPAY_APP_ID: optionalText,
  ALIPAY_PRIVATE_KEY: optionalText,
  ALIPAY_PUBLIC_KEY: optionalText,
  ALIPAY_GATEWAY: optionalText,
  ALIPAY_SELLER_ID: optionalText,
  BANK_TRANSFER_ACCOUNT: optionalText,
  ALIYUN_SMS_ACCESS_KEY_ID: optionalText,
  ALIYUN_SMS_ACCESS_KEY_SECRET: optionalText,
  ALIYUN_SMS_SIGN_NAME: optionalText,
  ALIYUN_SMS_TEMPLATE_CODE: optionalText,
  ALIYUN_SMS_TEMPLATE_ARREARS: optionalText,
  ALIYUN_SMS_TEMPLATE_RELEASE_REMINDER: optionalText,
  ALIYUN_SMS_TEMPLATE_STOCK_ALERT: optionalText,
  TENCENT_SMS_SECRET_ID: optionalText,
  TENCENT_SMS_SECRET_KEY: optionalText,
  TENCENT_SMS_SDK_APP_ID: optionalText,
  TENCENT_SMS_SIGN_NAME: optionalText,
  TENCENT_SMS_TEMPLATE_ID: optionalText,
  TENCENT_SMS_TEMPLATE_ARREARS: optionalText,
  TENCENT_SMS_TEMPLATE_RELEASE_REMINDER: optionalText,
  TENCENT_SMS_TEMPLATE_STOCK_ALERT: optionalText,
  ALIYUN_SMS_TEMPLATE_BALANCE_LOW: optionalText,
  ALIYUN_SMS_TEMPLATE_PACKAGE_EXPIRING: optionalText,
  TENCENT_SMS_TEMPLATE_BALANCE_LOW: optionalText,
  TENCENT_SMS_TEMPLATE_PACKAGE_EXPIRING: optionalText,
  ALIYUN_SMS_TEMPLATE_STORAGE_ARREARS: optionalText,
  TENCENT_SMS_TEMPLATE_STORAGE_ARREARS: optionalText,
  REQUIRE_VERIFICATION: z.enum(['true', 'false', '1', '0', ''], { error: 'REQUIRE_VERIFICATION 应为 true 或 false' }).optional().transform((value) => value === 'true' || value === '1'),
  WECHAT_LOGIN_PROVIDER: z.enum(['dev', 'wechat', 'off'], { error: 'WECHAT_LOGIN_PROVIDER 可选 dev、wechat、off' }).optional(),
  WECHAT_OPEN_APP_ID: optionalText,
  WECHAT_OPEN_APP_SECRET: optionalText,
});

export type SmsProviderName = (typeof SMS_PROVIDERS)[number];
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];
/** Fastify's `trustProxy`: off, a hop count, or the addresses/CIDRs of the proxies in front. */
export type TrustProxySetting = boolean | number | string[];

export interface HumanCheckConfig {
  provider: HumanCheckProviderName;
  /** SMS sends a client address may make in an hour before it must pass a human check. */
  afterClientSendsPerHour: number;
  /** SMS sends a phone may receive in a China calendar day before a human check is needed. */
  afterPhoneSendsPerDay: number;
  /** ALTCHA proof of work: PBKDF2 iterations per try, and the largest counter a challenge hides. */
  altcha: { cost: number; counterMax: number };
  aliyun: { accessKeyId: string; accessKeySecret: string; sceneId: string; prefix: string; region: 'cn' | 'sgp' } | undefined;
  tencent: { secretId: string; secretKey: string; captchaAppId: number; appSecretKey: string } | undefined;
}

function portRange(variable: string, range: string): { min: number; max: number } {
  const [min = 0, max = 0] = range.split('-').map(Number);
  if (min < 1024 || max > 65535 || max - min < 10) throw new ConfigError(`${variable} 须在 1024-65535 之内，且至少包含 10 个端口`);
  return { min, max };
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  /**
   * 文件存储: the directory holding a directory per store (`<ownerId>/<zoneId>`), which the server reads
   * and writes and the Docker driver bind-mounts; on several hosts a shared filesystem (NFS, CephFS,
   * JuiceFS) mounted at this same path everywhere. Default `${DATA_DIR}/storage`.
   */
  storageRoot: string;
  /** 模型: where the local engine finds GGUF files (default `${DATA_DIR}/models`), the limits and the free tokens of a new account. */
  models: {
    dir: string;
    freeTokens: number;
    requestsPerMinute: number;
    tokensPerMinute: number;
    localConcurrency: number;
    localQueue: number;
  };
  databaseUrl: string | undefined;
  jwtSecret: string;
  publicUrl: string;
  appTitle: string;
  computeDriver: (typeof COMPUTE_DRIVERS)[number];
  compute: {
    /** How long the simulated fleet takes for each transition, in seconds. */
    simSeconds: { create: number; start: number; stop: number; destroy: number; reinstall: number; saveImage: number; job: number };
    /** Fen per hour of an instance in no-GPU mode (无卡模式). */
    noGpuPriceFen: number;
    /** Fen per GB per day of the data disk above the free 50 GB (扩容数据盘). */
    diskPriceFenPerGbDay: number;
    /** The host name SSH commands name (the fleet's SSH gateway). */
    sshHost: string;
    /** COMPUTE_DRIVER=docker: the engine registered as a host at start (DOCKER_HOST), and how instances are made on Docker hosts. */
    docker: {
      engineUrl: string | undefined;
      /** GPUs to advertise without the NVIDIA runtime (development, tests); none are attached. */
      advertisedGpus: number | undefined;
      zoneId: string | undefined;
      gpuModelId: string | undefined;
      /** Where users reach published ports of the registered engine's host. */
      publicAddress: string;
      sshPorts: { min: number; max: number };
      baseImage: string;
      registryUrl: string | undefined;
    };
    /** COMPUTE_DRIVER=kubernetes: the cluster comes from KUBECONFIG (or the pod's service account). */
    kubernetes: {
      namespace: string;
      storageClass: string | undefined;
      /** 文件存储 on Kubernetes: a ReadWriteMany PersistentVolumeClaim of the namespace holding STORAGE_ROOT's tree; pods mount their store's sub-path. */
      storageClaim: string | undefined;
      serviceType: 'NodePort' | 'LoadBalancer';
      builderImage: string;
      nodePorts: { min: number; max: number };
    };
  };
  smsProvider: SmsProviderName;
  paymentProviders: PaymentProviderName[];
  prometheusUrl: string | undefined;
  /** The bearer token Prometheus sends to scrape `/metrics`; without it only this machine (loopback) may. */
  metricsToken: string | undefined;
  logLevel: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  rateLimitPerMinute: number;
  /** Whose X-Forwarded-For to believe (TRUST_PROXY); off by default, so clients cannot pick their address. */
  trustProxy: TrustProxySetting;
  /** Hard limit of SMS sends per client address per hour, human check or not. */
  smsSendsPerClientPerHour: number;
  humanCheck: HumanCheckConfig;
  webDistDir: string;
  /** Phones that get the operator role when they register or when the server starts. */
  operatorTelephones: string[];
  /** WeChat Pay merchant credentials (WECHATPAY_*), when all the required ones are set. */
  wechatPay: Omit<WechatPayOptions, 'baseUrl' | 'now'> | null;
  /** Alipay application credentials (ALIPAY_*), when all the required ones are set. */
  alipay: Omit<AlipayOptions, 'now'> | null;
  /** Where bank-transfer recharges go, shown to the payer. */
  bankAccount: { bankName: string; accountName: string; accountNo: string } | null;
  /** `noticeTemplates`: template ids of the SMS notices (arrears power-off, release reminder, stock alert), per gateway. */
  aliyunSms: { accessKeyId: string; accessKeySecret: string; signName: string; templateCode: string; noticeTemplates: NoticeTemplateIds } | undefined;
  /** Creating instances needs an approved identity verification (REQUIRE_VERIFICATION). */
  requireVerification: boolean;
  /**
   * WeChat sign-in and binding: `dev` renders a local authorise page standing in for WeChat's QR page
   * (not in production), `wechat` uses WeChat Open Platform website login with the app id and secret,
   * null when off.
   */
  wechatLogin: { provider: 'dev' } | { provider: 'wechat'; appId: string; appSecret: string } | null;
  tencentSms:
    | { secretId: string; secretKey: string; sdkAppId: string; signName: string; templateId: string; noticeTemplates: NoticeTemplateIds }
    | undefined;
}

export class ConfigError extends Error {}

/** The notice template ids that are set. */
function noticeTemplates(ids: Record<SmsNoticeKind, string | undefined>): NoticeTemplateIds {
  return Object.fromEntries(Object.entries(ids).filter(([, id]) => id !== undefined)) as NoticeTemplateIds;
}

function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

function parsePaymentProviders(raw: string | undefined, production: boolean): PaymentProviderName[] {
  if (raw === undefined || raw.trim() === '') return production ? [] : ['sandbox'];
  const names = raw.split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) {
    if (!(PAYMENT_PROVIDERS as readonly string[]).includes(name)) {
      throw new ConfigError(`PAYMENT_PROVIDERS 含有未知的支付渠道: ${name}（可选 ${PAYMENT_PROVIDERS.join(', ')}）`);
    }
  }
  return names as PaymentProviderName[];
}

/** PROMETHEUS_URL: an http(s) base address (a path prefix and `user:password@` allowed), without the trailing slash. */
function parsePrometheusUrl(raw: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined) return undefined;
  // The value is not echoed in the message: it may carry a password.
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    problems.push(`PROMETHEUS_URL 应为 Prometheus 的 http(s) 地址，如 http://prometheus:9090`);
    return undefined;
  }
  return raw.replace(/\/+$/, '');
}

const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: unset, `false` or `0` trusts nobody (the socket address is the client); a number trusts
 * that many hops in front of the server; a comma list trusts X-Forwarded-For only from those
 * addresses/CIDRs (or proxy-addr's names loopback, linklocal, uniquelocal); `true` trusts any sender.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxySetting {
  if (raw === undefined) return false;
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = raw.split(',').map((entry) => entry.trim()).filter(Boolean);
  const unknown = entries.filter((entry) => !isProxyAddress(entry));
  if (unknown.length > 0) {
    throw new ConfigError(`TRUST_PROXY 含有无法识别的代理地址: ${unknown.join(', ')}（可填跳数如 1，或逗号分隔的 IP/CIDR，如 127.0.0.1,10.0.0.0/8）`);
  }
  return entries;
}

/**
 * The setting as Fastify takes it. Fastify 5 refuses a bare hop count (it could not tell a proxy from a
 * client that connects directly), so a count becomes proxy-addr's hop function: the nearest `count`
 * addresses (the socket, then X-Forwarded-For from the right) are proxies, the next one is the client.
 */
export function fastifyTrustProxy(setting: TrustProxySetting): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting;
  if (setting === 0) return false;
  return (_address, hop) => hop < setting;
}

/** Parses the environment once. Production refuses dev providers and missing secrets. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`环境变量配置错误: ${details}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const dataDir = resolve(e.DATA_DIR);
  const smsProvider = e.SMS_PROVIDER ?? (production ? undefined : 'console');
  const problems: string[] = [];
  if (production) {
    if (!e.JWT_SECRET) problems.push('生产环境必须设置 JWT_SECRET');
    if (!smsProvider) problems.push('生产环境必须设置 SMS_PROVIDER（aliyun 或 tencent）');
    if (smsProvider === 'console') problems.push('生产环境不能使用 SMS_PROVIDER=console');
    if (!e.PUBLIC_URL) problems.push('生产环境必须设置 PUBLIC_URL');
  }
  const paymentProviders = parsePaymentProviders(e.PAYMENT_PROVIDERS, production);
  if (production && paymentProviders.includes('sandbox')) problems.push('生产环境不能使用 PAYMENT_PROVIDERS=sandbox');

  const aliyunSms =
    e.ALIYUN_SMS_ACCESS_KEY_ID && e.ALIYUN_SMS_ACCESS_KEY_SECRET && e.ALIYUN_SMS_SIGN_NAME && e.ALIYUN_SMS_TEMPLATE_CODE
      ? {
          accessKeyId: e.ALIYUN_SMS_ACCESS_KEY_ID,
          accessKeySecret: e.ALIYUN_SMS_ACCESS_KEY_SECRET,
          signName: e.ALIYUN_SMS_SIGN_NAME,
          templateCode: e.ALIYUN_SMS_TEMPLATE_CODE,
          noticeTemplates: noticeTemplates({
            arrears: e.ALIYUN_SMS_TEMPLATE_ARREARS,
            release_reminder: e.ALIYUN_SMS_TEMPLATE_RELEASE_REMINDER,
            stock_alert: e.ALIYUN_SMS_TEMPLATE_STOCK_ALERT,
            balance_low: e.ALIYUN_SMS_TEMPLATE_BALANCE_LOW,
            package_expiring: e.ALIYUN_SMS_TEMPLATE_PACKAGE_EXPIRING,
            storage_arrears: e.ALIYUN_SMS_TEMPLATE_STORAGE_ARREARS,
          }),
        }
      : undefined;
  const tencentSms =
    e.TENCENT_SMS_SECRET_ID &&
    e.TENCENT_SMS_SECRET_KEY &&
    e.TENCENT_SMS_SDK_APP_ID &&
    e.TENCENT_SMS_SIGN_NAME &&
    e.TENCENT_SMS_TEMPLATE_ID
      ? {
          secretId: e.TENCENT_SMS_SECRET_ID,
          secretKey: e.TENCENT_SMS_SECRET_KEY,
          sdkAppId: e.TENCENT_SMS_SDK_APP_ID,
          signName: e.TENCENT_SMS_SIGN_NAME,
          templateId: e.TENCENT_SMS_TEMPLATE_ID,
          noticeTemplates: noticeTemplates({
            arrears: e.TENCENT_SMS_TEMPLATE_ARREARS,
            release_reminder: e.TENCENT_SMS_TEMPLATE_RELEASE_REMINDER,
            stock_alert: e.TENCENT_SMS_TEMPLATE_STOCK_ALERT,
            balance_low: e.TENCENT_SMS_TEMPLATE_BALANCE_LOW,
            package_expiring: e.TENCENT_SMS_TEMPLATE_PACKAGE_EXPIRING,
            storage_arrears: e.TENCENT_SMS_TEMPLATE_STORAGE_ARREARS,
          }),
        }
      : undefined;
  if (smsProvider === 'aliyun' && !aliyunSms) problems.push('SMS_PROVIDER=aliyun 需要 ALIYUN_SMS_* 四个变量');
  if (smsProvider === 'tencent' && !tencentSms) problems.push('SMS_PROVIDER=tencent 需要 TENCENT_SMS_* 五个变量');
  const aliyunCaptcha =
    e.ALIYUN_CAPTCHA_ACCESS_KEY_ID && e.ALIYUN_CAPTCHA_ACCESS_KEY_SECRET && e.ALIYUN_CAPTCHA_SCENE_ID && e.ALIYUN_CAPTCHA_PREFIX
      ? {
          accessKeyId: e.ALIYUN_CAPTCHA_ACCESS_KEY_ID,
          accessKeySecret: e.ALIYUN_CAPTCHA_ACCESS_KEY_SECRET,
          sceneId: e.ALIYUN_CAPTCHA_SCENE_ID,
          prefix: e.ALIYUN_CAPTCHA_PREFIX,
          region: e.ALIYUN_CAPTCHA_REGION,
        }
      : undefined;
  const tencentCaptchaAppId = e.TENCENT_CAPTCHA_APP_ID && /^\d+$/.test(e.TENCENT_CAPTCHA_APP_ID) ? Number(e.TENCENT_CAPTCHA_APP_ID) : undefined;
  if (e.TENCENT_CAPTCHA_APP_ID && tencentCaptchaAppId === undefined) problems.push('TENCENT_CAPTCHA_APP_ID 应为数字（验证码控制台中的 CaptchaAppId）');
  const tencentCaptcha =
    e.TENCENT_CAPTCHA_SECRET_ID && e.TENCENT_CAPTCHA_SECRET_KEY && tencentCaptchaAppId !== undefined && e.TENCENT_CAPTCHA_APP_SECRET_KEY
      ? {
          secretId: e.TENCENT_CAPTCHA_SECRET_ID,
          secretKey: e.TENCENT_CAPTCHA_SECRET_KEY,
          captchaAppId: tencentCaptchaAppId,
          appSecretKey: e.TENCENT_CAPTCHA_APP_SECRET_KEY,
        }
      : undefined;
  if (e.HUMAN_CHECK_PROVIDER === 'aliyun' && !aliyunCaptcha) {
    problems.push('HUMAN_CHECK_PROVIDER=aliyun 需要 ALIYUN_CAPTCHA_ACCESS_KEY_ID、ALIYUN_CAPTCHA_ACCESS_KEY_SECRET、ALIYUN_CAPTCHA_SCENE_ID、ALIYUN_CAPTCHA_PREFIX');
  }
  if (e.HUMAN_CHECK_PROVIDER === 'tencent' && !tencentCaptcha) {
    problems.push('HUMAN_CHECK_PROVIDER=tencent 需要 TENCENT_CAPTCHA_SECRET_ID、TENCENT_CAPTCHA_SECRET_KEY、TENCENT_CAPTCHA_APP_ID、TENCENT_CAPTCHA_APP_SECRET_KEY');
  }
  const prometheusUrl = parsePrometheusUrl(e.PROMETHEUS_URL, problems);
  let trustProxy: TrustProxySetting = false;
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(error.message);
  }
  if (problems.length > 0) throw new ConfigError(problems.join('；'));

  const operatorTelephones = (e.OPERATOR_TELEPHONES ?? '')
    .split(',')
    .map((phone) => phone.trim())
    .filter(Boolean);
  let bankAccount: Config['bankAccount'] = null;
  if (e.BANK_TRANSFER_ACCOUNT) {
    const [bankName, accountName, accountNo] = e.BANK_TRANSFER_ACCOUNT.split('|').map((part) => part.trim());
    if (!bankName || !accountName || !accountNo) problems.push('BANK_TRANSFER_ACCOUNT 格式应为 开户行|户名|账号');
    else bankAccount = { bankName, accountName, accountNo };
  }
  // PEM keys in one-line env values carry literal \n.
  const pem = (value: string) => value.replace(/\\n/g, '\n');
  const wechatPay =
    e.WECHATPAY_APP_ID &&
    e.WECHATPAY_MCH_ID &&
    e.WECHATPAY_SERIAL_NO &&
    e.WECHATPAY_PRIVATE_KEY &&
    e.WECHATPAY_API_V3_KEY &&
    e.WECHATPAY_PLATFORM_PUBLIC_KEY &&
    e.WECHATPAY_PLATFORM_SERIAL_NO
      ? {
          appId: e.WECHATPAY_APP_ID,
          mchId: e.WECHATPAY_MCH_ID,
          serialNo: e.WECHATPAY_SERIAL_NO,
          privateKeyPem: pem(e.WECHATPAY_PRIVATE_KEY),
          apiV3Key: e.WECHATPAY_API_V3_KEY,
          platformPublicKeyPem: pem(e.WECHATPAY_PLATFORM_PUBLIC_KEY),
          platformSerialNo: e.WECHATPAY_PLATFORM_SERIAL_NO,
        }
      : null;
  const alipay =
    e.ALIPAY_APP_ID && e.ALIPAY_PRIVATE_KEY && e.ALIPAY_PUBLIC_KEY
      ? {
          appId: e.ALIPAY_APP_ID,
          privateKeyPem: pem(e.ALIPAY_PRIVATE_KEY),
          alipayPublicKeyPem: pem(e.ALIPAY_PUBLIC_KEY),
          ...(e.ALIPAY_GATEWAY ? { gateway: e.ALIPAY_GATEWAY } : {}),
          ...(e.ALIPAY_SELLER_ID ? { sellerId: e.ALIPAY_SELLER_ID } : {}),
        }
      : null;
  if (paymentProviders.includes('wechatpay') && !wechatPay) problems.push('PAYMENT_PROVIDERS 含 wechatpay 时需要 WECHATPAY_* 七个变量（WECHATPAY_PLATFORM_SERIAL_NO 为微信支付公钥 ID 或平台证书序列号）');
  if (paymentProviders.includes('alipay') && !alipay) problems.push('PAYMENT_PROVIDERS 含 alipay 时需要 ALIPAY_APP_ID、ALIPAY_PRIVATE_KEY、ALIPAY_PUBLIC_KEY');
  if (paymentProviders.includes('bank') && !bankAccount) problems.push('PAYMENT_PROVIDERS 含 bank 时需要设置 BANK_TRANSFER_ACCOUNT');
  const wechatLoginProvider = e.WECHAT_LOGIN_PROVIDER ?? (production ? (e.WECHAT_OPEN_APP_ID ? 'wechat' : 'off') : 'dev');
  if (production && wechatLoginProvider === 'dev') problems.push('生产环境不能使用 WECHAT_LOGIN_PROVIDER=dev');
  if (wechatLoginProvider === 'wechat' && !(e.WECHAT_OPEN_APP_ID && e.WECHAT_OPEN_APP_SECRET)) {
    problems.push('WECHAT_LOGIN_PROVIDER=wechat 需要 WECHAT_OPEN_APP_ID 和 WECHAT_OPEN_APP_SECRET（微信开放平台网站应用）');
  }
  const wechatLogin: Config['wechatLogin'] =
    wechatLoginProvider === 'dev'
      ? { provider: 'dev' }
      : wechatLoginProvider === 'wechat' && e.WECHAT_OPEN_APP_ID && e.WECHAT_OPEN_APP_SECRET
        ? { provider: 'wechat', appId: e.WECHAT_OPEN_APP_ID, appSecret: e.WECHAT_OPEN_APP_SECRET }
        : null;
  if (e.COMPUTE_DRIVER === 'kubernetes' && !e.REGISTRY_URL) problems.push('COMPUTE_DRIVER=kubernetes 需要 REGISTRY_URL：保存的镜像推送到这个镜像仓库，各节点从这里拉取');
  if (problems.length > 0) throw new ConfigError(problems.join('；'));

  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    storageRoot: e.STORAGE_ROOT === undefined ? join(dataDir, 'storage') : resolve(e.STORAGE_ROOT),
    models: {
      dir: e.MODELS_DIR === undefined ? join(dataDir, 'models') : resolve(e.MODELS_DIR),
      freeTokens: e.MODEL_FREE_TOKENS,
      requestsPerMinute: e.MODEL_REQUESTS_PER_MINUTE,
      tokensPerMinute: e.MODEL_TOKENS_PER_MINUTE,
      localConcurrency: e.LOCAL_ENGINE_CONCURRENCY,
      localQueue: e.LOCAL_ENGINE_QUEUE,
    },
    databaseUrl: e.DATABASE_URL,
    jwtSecret: e.JWT_SECRET ?? readOrCreateSecret(dataDir),
    publicUrl,
    appTitle: e.APP_TITLE,
    computeDriver: e.COMPUTE_DRIVER,
    compute: {
      simSeconds: {
        create: e.SIM_CREATE_SECONDS,
        start: e.SIM_START_SECONDS,
        stop: e.SIM_STOP_SECONDS,
        destroy: e.SIM_DESTROY_SECONDS,
        reinstall: e.SIM_REINSTALL_SECONDS,
        saveImage: e.SIM_SAVE_IMAGE_SECONDS,
        job: e.SIM_JOB_SECONDS,
      },
      noGpuPriceFen: e.NO_GPU_PRICE_FEN,
      diskPriceFenPerGbDay: e.DISK_PRICE_FEN_PER_GB_DAY,
      sshHost: e.SSH_HOST ?? `connect.${new URL(publicUrl).hostname}`,
      docker: {
        engineUrl: e.DOCKER_HOST,
        advertisedGpus: e.DOCKER_GPUS,
        zoneId: e.DOCKER_ZONE,
        gpuModelId: e.DOCKER_GPU_MODEL,
        publicAddress: e.DOCKER_PUBLIC_ADDRESS ?? new URL(publicUrl).hostname,
        sshPorts: portRange('DOCKER_SSH_PORTS', e.DOCKER_SSH_PORTS),
        baseImage: e.DOCKER_BASE_IMAGE,
        registryUrl: e.REGISTRY_URL,
      },
      kubernetes: {
        namespace: e.K8S_NAMESPACE,
        storageClass: e.K8S_STORAGE_CLASS,
        storageClaim: e.K8S_STORAGE_CLAIM,
        serviceType: e.K8S_SERVICE_TYPE,
        builderImage: e.K8S_IMAGE_BUILDER,
        nodePorts: portRange('K8S_NODE_PORTS', e.K8S_NODE_PORTS),
      },
    },
    smsProvider: smsProvider ?? 'console',
    paymentProviders,
    prometheusUrl,
    metricsToken: e.METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    trustProxy,
    smsSendsPerClientPerHour: e.SMS_SENDS_PER_CLIENT_PER_HOUR,
    humanCheck: {
      provider: e.HUMAN_CHECK_PROVIDER,
      afterClientSendsPerHour: e.HUMAN_CHECK_AFTER_CLIENT_SENDS_PER_HOUR,
      afterPhoneSendsPerDay: e.HUMAN_CHECK_AFTER_PHONE_SENDS_PER_DAY,
      altcha: { cost: e.ALTCHA_COST, counterMax: e.ALTCHA_COUNTER_MAX },
      aliyun: aliyunCaptcha,
      tencent: tencentCaptcha,
    },
    operatorTelephones,
    bankAccount,
    wechatPay,
    alipay,
    webDistDir: resolve(e.WEB_DIST_DIR ?? new URL('../../web/dist', import.meta.url).pathname),
    aliyunSms,
    tencentSms,
    requireVerification: e.REQUIRE_VERIFICATION,
    wechatLogin,
  };
}
