/** Texts of the small UI components (ui/). */
export const UI_TEXTS = {
  showPassword: '显示密码',
  hidePassword: '隐藏密码',
  close: '关闭',
  loading: '加载中…',
  breadcrumb: '当前位置',
} as const;
