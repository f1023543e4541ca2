export const ERROR_TEXTS = {
  home: '返回首页',
  forbidden: { title: '没有权限访问该页面', description: '当前账号没有访问此页面的权限，如需开通请联系主账号管理员。' },
  notFound: {
    title: '页面不存在',
    description: '您访问的页面不存在或已被移除，请检查地址是否正确。',
    withPath: (path: string) => `您访问的页面 ${path} 不存在或已被移除，请检查地址是否正确。`,
  },
  serverError: { title: '应用错误', description: '服务器开了个小差，请稍后重试。' },
  appError: { title: '应用错误', description: '页面出现了意外错误，请刷新页面或返回首页后重试。' },
  reload: '刷新页面',
} as const;
