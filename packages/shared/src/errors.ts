/**
 * Every business error code the API returns, with its HTTP status and Chinese message.
 * The envelope carries the code in both `rspcode` and `code` (DESIGN §4).
 */
export const ErrorCodes = {
  VALIDATION: { code: 40000, status: 400, message: '请求参数不正确' },
  MALFORMED_JSON: { code: 40001, status: 400, message: '请求体不是合法的 JSON' },
  SMS_CODE_INVALID: { code: 40010, status: 400, message: '验证码错误或已失效，请重新获取' },
  SMS_CODE_BURNED: { code: 40011, status: 400, message: '验证码错误次数过多，请重新获取' },
  HUMAN_CHECK_FAILED: { code: 40012, status: 400, message: '人机验证未通过或已失效，请重新验证' },
  LOGIN_FAILED: { code: 40020, status: 400, message: '手机号或密码错误' },
  OLD_PASSWORD_WRONG: { code: 40021, status: 400, message: '原密码错误' },
  PHONE_NOT_REGISTERED: { code: 40022, status: 400, message: '该手机号未注册' },
  AMOUNT_INVALID: { code: 40030, status: 400, message: '金额不正确' },
  INSUFFICIENT_BALANCE: { code: 40031, status: 400, message: '账户余额不足，请先充值' },
  VOUCHER_UNAVAILABLE: { code: 40032, status: 400, message: '代金券不可用（已使用、已过期或不满足使用条件）' },
  REDEEM_CODE_INVALID: { code: 40033, status: 400, message: '兑换码不存在或已失效' },
  REDEEM_CODE_USED: { code: 40034, status: 400, message: '该兑换码已被使用' },
  INVOICE_AMOUNT_EXCEEDED: { code: 40035, status: 400, message: '开票金额超过可开票金额' },
  INVOICE_PROFILE_MISSING: { code: 40036, status: 400, message: '请先填写发票信息' },
  PAYMENT_CHANNEL_UNAVAILABLE: { code: 40037, status: 400, message: '该支付方式暂未开通' },
  PAYMENT_NOTIFY_INVALID: { code: 40038, status: 400, message: '支付通知校验失败' },
  NAME_EXISTS: { code: 40026, status: 409, message: '名称已存在，请重新输入' },
  SSH_KEY_EXISTS: { code: 40027, status: 409, message: '该公钥已添加，无需重复添加' },
  STOCK_ALERT_EXISTS: { code: 40028, status: 409, message: '已订阅该到货提醒，有空闲时会通知您' },
  UNAUTHORIZED: { code: 40100, status: 401, message: '登录状态已过期，需要重新登录' },
  REFRESH_TOKEN_INVALID: { code: 40101, status: 401, message: '登录状态已失效，请重新登录' },
  FORBIDDEN: { code: 40300, status: 403, message: '没有权限访问该资源' },
  VERIFICATION_REQUIRED: { code: 40310, status: 403, message: '创建实例前请先完成实名认证' },
  NOT_FOUND: { code: 40400, status: 404, message: '服务器资源不存在' },
  STATE_CONFLICT: { code: 40901, status: 409, message: '当前状态不允许该操作' },
  HOST_GPU_SHORTAGE: { code: 40940, status: 409, message: '主机GPU不足' },
  IDENTITY_IN_USE: { code: 40950, status: 409, message: '该证件已被其他账号用于认证' },
  IDEMPOTENCY_CONFLICT: { code: 40902, status: 409, message: '相同的幂等键已用于其他请求' },
  PHONE_REGISTERED: { code: 40900, status: 409, message: '该手机号已注册' },
  PAYLOAD_TOO_LARGE: { code: 41300, status: 413, message: '请求内容过大' },
  UNSUPPORTED_MEDIA_TYPE: { code: 41500, status: 415, message: '不支持的请求内容类型' },
  HUMAN_CHECK_REQUIRED: { code: 42800, status: 428, message: '请先完成人机验证' },
  RATE_LIMITED: { code: 42900, status: 429, message: '请求过于频繁，请稍后再试' },
  REDEEM_TOO_MANY: { code: 42904, status: 429, message: '兑换失败次数过多，请10分钟后再试' },
  SMS_TOO_FREQUENT: { code: 42901, status: 429, message: '验证码发送过于频繁，请60秒后再试' },
  SMS_DAILY_LIMIT: { code: 42902, status: 429, message: '该手机号今日验证码发送次数已达上限' },
  LOGIN_LOCKED: { code: 42903, status: 429, message: '登录失败次数过多，请15分钟后再试' },
  SMS_CLIENT_LIMIT: { code: 42905, status: 429, message: '当前网络发送验证码过于频繁，请稍后再试' },
  INTERNAL: { code: 50000, status: 500, message: '服务器内部错误' },
  SERVICE_UNAVAILABLE: { code: 50300, status: 503, message: '服务暂不可用' },
} as const satisfies Record<string, { code: number; status: number; message: string }>;

export type ErrorCodeName = keyof typeof ErrorCodes;

/** The success envelope values of spec §7. */
export const SUCCESS_RSPCODE = 0;
export const SUCCESS_CODE = 200;

export interface Envelope<T> {
  rspcode: number;
  code: number;
  rspmsg: string;
  result: T;
}

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  pageSize: number;
}
