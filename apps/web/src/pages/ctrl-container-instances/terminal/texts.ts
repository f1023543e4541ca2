/** 终端: the instance's shell in the browser. */
export const TERMINAL_TEXTS = {
  title: '终端',
  back: '返回实例列表',
  reconnect: '重新连接',
  missingInstance: '缺少实例ID，请从实例列表打开终端',
  connecting: '正在连接…',
  connected: '已连接',
  closed: '已断开',
  ended: '会话已结束',
  lost: '与服务器的连接已断开',
  hint: '以 root 登录实例；关闭此页即结束会话',
} as const;
