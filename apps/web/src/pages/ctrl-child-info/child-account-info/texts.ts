import type { OfferedAuthorityType, PermissionLevel } from '@slg/shared';

export const CHILD_ACCOUNT_INFO_TEXTS = {
  title: '账号信息',
  description: '你的子账号资料、可用余额和主账号授予的权限',
  loadFailed: '账号信息加载失败',
  basic: {
    title: '基本信息',
    username: '用户名',
    nickname: '昵称',
    noNickname: '未设置',
    accountType: '账号类型',
    subAccount: '子账号',
    mainAccountId: '所属主账号 ID',
  },
  balance: {
    title: '余额',
    mode: '余额方式',
    shared: '共用主账号余额',
    own: '独立余额',
    sharedAmount: '主账号可用余额',
    ownAmount: '可用余额',
    subAmount: '子账号余额',
    sharedHint: '你的消费从主账号余额中扣除，余额不足时请联系主账号充值。',
    ownHint: '你的消费从这份独立余额中扣除，由主账号为你充值或扣款。',
    loadFailed: '余额加载失败',
  },
  permissions: {
    title: '我的权限',
    hint: '权限由主账号设置，如需调整请联系主账号。',
    granted: '已授权',
    column: { type: '权限类型', level: '权限', meaning: '说明' },
  },
  password: {
    title: '修改密码',
    hint: '修改后，你在其他设备和浏览器上的登录将退出，当前登录保持不变。',
    oldLabel: '原密码',
    oldPlaceholder: '请输入原密码',
    oldRequired: '请输入原密码',
    submit: '确认修改',
    success: '密码已修改，其他设备上的登录已退出',
  },
  phone: {
    title: '绑定手机',
    unbound: '未绑定',
    change: '更换手机号',
    hint: '绑定后，忘记密码时可在子账号登录页通过该手机号验证并重置密码。',
    submit: '绑定',
    success: '手机号已绑定',
  },
  mainAccount: {
    title: '这是子账号的账号信息页',
    body: '你正在使用主账号，主账号的资料和密码在账号设置中管理。',
    action: '前往账号设置',
  },
} as const;

/** What each authority type offered today lets a sub-account reach. */
export const AUTHORITY_SCOPES: Record<OfferedAuthorityType, string> = {
  CONTAINER: '容器实例的创建、开关机、续费、升降配与监控',
  ELASTIC: '弹性部署的创建、编辑、停止与容器管理，以及时长包',
  MIRROR: '我的镜像：保存、使用与删除',
  FILE_STORAGE: '文件存储：初始化、配额，以及文件的上传、下载、重命名与删除',
  INVOICE: '费用中心：订单、账单明细与发票',
};

/** What each level means for the resources of that type. */
export const LEVEL_MEANINGS: Record<PermissionLevel, string> = {
  SELF: '只能查看和操作你自己创建的资源',
  ALL: '可以查看和操作主账号下所有成员的资源',
  NONE: '不能访问，相关页面和菜单不会显示',
};
