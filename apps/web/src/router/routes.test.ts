import { describe, expect, it } from 'vitest';
import { activeMenuKey, headerMenu, openMenuKeys, sidebarMenu } from './menus';
import { breadcrumbTrail, findRoute, NOT_FOUND_ROUTE, resolveRoute, ROUTES } from './routes';

const SPEC_ROUTES = [
  // public
  '/signup', '/login', '/sub-account-login', '/terms/service-terms', '/terms/privacy-terms', '/home', '/news', '/news/list',
  '/about', '/latest-activities', '/reset-password', '/register', '/403', '/404', '/500', '/', '/activities-detail',
  '/share-data', '/error', '/computility-market', '/model-market/model-center/modelCenter', '/welcome',
  // other
  '/exchange', '/form', '/signup/privacy', '/signup/service', '/signup/verify',
  // console
  '/computility-market/method', '/computility-market/model', '/computility-market/quantity', '/computility-market/region',
  ...['containerInstances', 'createInstances', 'cloneInstances', 'confirm-order', 'confirm-clone-order', 'instance-monitoring',
    'payByVolume', 'renew', 'sshSet', 'upDownSetting', 'yearMonthPackages', 'priceDetail'].map((p) => `/ctrl-container-instances/${p}`),
  '/ctrl-cost-center/cost-center',
  ...['f-details', 'income-details', 'invoice-info', 'invoice', 'make-bill-invoice', 'make-price-invoice', 'order-detail', 'order',
    'recharge-record', 'recharge', 'voucher'].map((p) => `/ctrl-cost-center/cost-center/${p}`),
  '/ctrl-data-set/data-set', '/ctrl-data-set/data-set/public-data', '/ctrl-data-set/data-set/shared-data',
  '/ctrl-file-storage/file-storage',
  '/ctrl-flexible-deployment/flexiible-deployment',
  ...['create-flexible', 'flexiible-deployment', 'release-instance', 'time-packs', 'view-container'].map(
    (p) => `/ctrl-flexible-deployment/flexiible-deployment/${p}`,
  ),
  '/ctrl-mirror-image/mirrorImage',
  '/ctrl-overview/overview',
  '/ctrl-personal-center/personal-center',
  ...['account-settings', 'authentication', 'charging-record', 'child-account', 'child-account-detail', 'setting', 'person-page',
    'enter-page', 'edu-page', 'school-page'].map((p) => `/ctrl-personal-center/personal-center/${p}`),
  '/ctrl-child-info/child-account-info',
  '/model-market/modelMarket', '/model-market/modelMarket/textModel', '/model-market/modelMarket/visualModel', '/model-market/modelMarket/chat',
  '/workbench/workbench', '/workbench/workbench/example', '/workbench/workbench/instanceDetail',
];

const BUILT = [
  '/', '/home', '/about', '/terms/service-terms', '/terms/privacy-terms', '/welcome', '/login', '/signup', '/register',
  '/reset-password', '/403', '/404', '/500', '/error', '/ctrl-overview/overview',
  // cost centre (issue 3)
  '/exchange', '/ctrl-cost-center/cost-center',
  ...['recharge', 'recharge-record', 'order', 'order-detail', 'f-details', 'income-details', 'invoice', 'invoice-info',
    'make-bill-invoice', 'make-price-invoice', 'voucher'].map((p) => `/ctrl-cost-center/cost-center/${p}`),
  // compute (issue 7): the market with its step sub-paths, the instance list and the create page
  '/computility-market', '/computility-market/method', '/computility-market/model', '/computility-market/quantity', '/computility-market/region',
  '/ctrl-container-instances/containerInstances', '/ctrl-container-instances/createInstances', '/ctrl-container-instances/confirm-order',
  // issue 8: SSH keys and monitoring
  '/ctrl-container-instances/sshSet', '/ctrl-container-instances/instance-monitoring',
  '/ctrl-container-instances/upDownSetting', '/ctrl-container-instances/priceDetail',
  // 克隆实例 and its order (the clone dialog became these pages)
  '/ctrl-container-instances/cloneInstances', '/ctrl-container-instances/confirm-clone-order',
  // the billing pages: 续费, 转按量计费, 转包年包月
  '/ctrl-container-instances/renew', '/ctrl-container-instances/payByVolume', '/ctrl-container-instances/yearMonthPackages',
  // issue 19: 快捷工具 › 终端
  '/ctrl-container-instances/terminal',
  // issue 8: private images
  '/ctrl-mirror-image/mirrorImage',
  // issue 22: 文件存储
  '/ctrl-file-storage/file-storage',
  // issue 9: 账号设置
  '/ctrl-personal-center/personal-center/account-settings', '/ctrl-personal-center/personal-center/child-account',
  '/ctrl-personal-center/personal-center/child-account-detail', '/ctrl-personal-center/personal-center/setting',
  // issue 9: 计费记录
  '/ctrl-personal-center/personal-center/charging-record',
  // issue 9: 实名认证 and its three forms, 学校认证
  ...['authentication', 'person-page', 'enter-page', 'edu-page', 'school-page'].map((p) => `/ctrl-personal-center/personal-center/${p}`),
  // issue 9: the sub-account's sign-in and its own page
  '/sub-account-login', '/ctrl-child-info/child-account-info',
  // issue 21: 弹性部署 (the group itself has no page: it opens its first child)
  ...['flexiible-deployment', 'create-flexible', 'view-container', 'release-instance', 'time-packs'].map(
    (p) => `/ctrl-flexible-deployment/flexiible-deployment/${p}`,
  ),
  // issue 22: 数据集 (the group itself has no page: it opens its first child) and the public 共享数据
  '/ctrl-data-set/data-set/public-data', '/ctrl-data-set/data-set/shared-data', '/share-data',
  // issue 23: 模型中心 (public), 模型市场 (the group itself has no page: it opens 文本模型) and 模型对话; 工作台 is not built
  '/model-market/model-center/modelCenter', '/model-market/modelMarket/textModel', '/model-market/modelMarket/visualModel',
  '/model-market/modelMarket/chat',
];

describe('route table', () => {
  it('holds every route of spec §2 with a Chinese title', () => {
    for (const path of SPEC_ROUTES) {
      const record = findRoute(path);
      expect(record, path).toBeDefined();
      expect(record?.meta.title, path).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it('has no duplicate paths', () => {
    const paths = ROUTES.map((record) => record.path.toLowerCase());
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('has a page only for the pages that are built', () => {
    const withPage = ROUTES.filter((record) => record.page).map((record) => record.path);
    expect(withPage.sort()).toEqual([...BUILT].sort());
  });

  it('tags permissions per spec §6', () => {
    expect(findRoute('/ctrl-container-instances/renew')?.meta.permission).toBe('CONTAINER');
    expect(findRoute('/computility-market/region')?.meta.permission).toBe('CONTAINER');
    expect(findRoute('/ctrl-cost-center/cost-center/invoice')?.meta.permission).toBe('INVOICE');
    expect(findRoute('/ctrl-file-storage/file-storage')?.meta.permission).toBe('FILE_STORAGE');
    expect(findRoute('/ctrl-flexible-deployment/flexiible-deployment/time-packs')?.meta.permission).toBe('ELASTIC');
    expect(findRoute('/ctrl-mirror-image/mirrorImage')?.meta.permission).toBe('MIRROR');
    expect(findRoute('/model-market/modelMarket/chat')?.meta.permission).toBe('MODEL_DEPLOY');
    expect(findRoute('/model-market/model-center/modelCenter')?.meta.permission).toBe('MODEL_DEPLOY');
    expect(findRoute('/workbench/workbench/example')?.meta.permission).toBe('MODEL_DEPLOY');
  });

  it('flags the sub-account pages of spec §2', () => {
    const flagged = ROUTES.filter((record) => record.meta.subAccountPage).map((record) => record.path);
    expect(flagged.sort()).toEqual(
      [
        '/computility-market', '/ctrl-container-instances/createInstances', '/ctrl-data-set/data-set',
        '/ctrl-data-set/data-set/shared-data', '/ctrl-personal-center/personal-center',
        '/ctrl-personal-center/personal-center/setting', '/ctrl-child-info/child-account-info', '/news', '/news/list',
      ].sort(),
    );
  });

  it('inherits the layout and sets the breadcrumb parent of children', () => {
    const child = findRoute('/ctrl-cost-center/cost-center/order');
    expect(child?.meta.layout).toBe('dashboard');
    expect(child?.meta.console).toBe(true);
    expect(breadcrumbTrail(child ?? NOT_FOUND_ROUTE).map((record) => record.path)).toEqual([
      '/ctrl-cost-center/cost-center',
      '/ctrl-cost-center/cost-center/order',
    ]);
  });

  it('resolves like React Router: case-insensitive, trailing slash ignored, unknown → 404', () => {
    expect(resolveRoute('/CTRL-overview/overview/').path).toBe('/ctrl-overview/overview');
    expect(resolveRoute('/nope')).toBe(NOT_FOUND_ROUTE);
    expect(NOT_FOUND_ROUTE.meta.title).toBe('页面不存在');
  });
});

describe('menus', () => {
  const main = { loggedIn: true, accountType: 1 as const, permissions: null };

  it('show only routes that have a page', () => {
    expect(sidebarMenu(main).map((entry) => entry.key)).toEqual([
      '/ctrl-overview/overview',
      '/computility-market',
      '/ctrl-container-instances',
      '/ctrl-flexible-deployment/flexiible-deployment',
      '/ctrl-file-storage/file-storage',
      '/ctrl-mirror-image/mirrorImage',
      '/ctrl-data-set/data-set',
      '/model-market/model-center/modelCenter',
      '/model-market/modelMarket',
      '/ctrl-cost-center/cost-center',
      '/ctrl-personal-center/personal-center',
    ]);
    expect(headerMenu().map((entry) => entry.key)).toEqual(['/', '/about', '/computility-market', '/model-market/model-center/modelCenter']);
  });

  it('hide what a sub-account may not open', () => {
    const sub = { loggedIn: true, accountType: 2 as const, permissions: ['CONTAINER' as const] };
    // 个人中心 is a sub-account page (spec §2).
    // 数据集 and its 共享数据集 are sub-account pages too (spec §2).
    expect(sidebarMenu(sub).map((entry) => entry.key)).toEqual([
      '/computility-market',
      '/ctrl-container-instances',
      '/ctrl-data-set/data-set',
      '/ctrl-personal-center/personal-center',
      '/ctrl-child-info/child-account-info',
    ]);
    expect(sidebarMenu({ ...sub, permissions: [] }).map((entry) => entry.key)).toEqual([
      '/ctrl-overview/overview',
      '/computility-market',
      '/ctrl-container-instances',
      '/ctrl-flexible-deployment/flexiible-deployment',
      '/ctrl-file-storage/file-storage',
      '/ctrl-mirror-image/mirrorImage',
      '/ctrl-data-set/data-set',
      '/ctrl-cost-center/cost-center',
      '/ctrl-personal-center/personal-center',
      '/ctrl-child-info/child-account-info',
    ]);
    // 算力市场 is a sub-account page (spec §2): every sub-account sees it.
    expect(sidebarMenu({ ...sub, permissions: ['INVOICE'] }).map((entry) => entry.key)).toEqual([
      '/computility-market',
      '/ctrl-data-set/data-set',
      '/ctrl-cost-center/cost-center',
      '/ctrl-personal-center/personal-center',
      '/ctrl-child-info/child-account-info',
    ]);
  });

  it('leave the sub-account pages about the sub-account itself out of a main account menu', () => {
    const keys = (session: typeof main | { loggedIn: true; accountType: 2; permissions: [] }) => sidebarMenu(session).map((entry) => entry.key);
    expect(keys(main)).not.toContain('/ctrl-child-info/child-account-info');
    expect(keys({ loggedIn: true, accountType: 2, permissions: [] })).toContain('/ctrl-child-info/child-account-info');
  });

  it('group the cost centre pages in the sidebar, in table order', () => {
    const cost = sidebarMenu(main).find((entry) => entry.key === '/ctrl-cost-center/cost-center');
    expect(cost?.label).toBe('费用中心');
    expect(cost?.children?.map((entry) => entry.label)).toEqual(['充值', '充值记录', '我的订单', '账单明细', '收支明细', '发票管理', '代金券']);
  });

  it('group the 弹性部署 pages in the sidebar; a sub-account sees them with ELASTIC only', () => {
    const elastic = sidebarMenu(main).find((entry) => entry.key === '/ctrl-flexible-deployment/flexiible-deployment');
    expect(elastic?.label).toBe('弹性部署');
    expect(elastic?.children?.map((entry) => entry.label)).toEqual(['部署列表', '已释放实例', '时长包']);
    const keys = (permissions: ('ELASTIC' | 'CONTAINER')[]) => sidebarMenu({ loggedIn: true, accountType: 2, permissions }).map((entry) => entry.key);
    expect(keys(['ELASTIC'])).toContain('/ctrl-flexible-deployment/flexiible-deployment');
    expect(keys(['CONTAINER'])).not.toContain('/ctrl-flexible-deployment/flexiible-deployment');
    const view = findRoute('/ctrl-flexible-deployment/flexiible-deployment/view-container') ?? NOT_FOUND_ROUTE;
    expect(activeMenuKey(view)).toBe('/ctrl-flexible-deployment/flexiible-deployment/flexiible-deployment');
  });

  it('group 公开数据集 and 共享数据集 under 数据集; a sub-account with permissions sees 共享数据集 only', () => {
    const datasets = sidebarMenu(main).find((entry) => entry.key === '/ctrl-data-set/data-set');
    expect(datasets?.label).toBe('数据集');
    expect(datasets?.icon).toBe('dataset');
    expect(datasets?.children?.map((entry) => entry.key)).toEqual(['/ctrl-data-set/data-set/public-data', '/ctrl-data-set/data-set/shared-data']);
    const sub = sidebarMenu({ loggedIn: true, accountType: 2, permissions: ['CONTAINER'] }).find((entry) => entry.key === '/ctrl-data-set/data-set');
    expect(sub?.children?.map((entry) => entry.label)).toEqual(['共享数据集']);
  });

  it('show 模型中心 and 模型市场 (文本模型, 视觉模型) to a main account and a visitor 模型中心 only; 工作台 is not built', () => {
    const models = sidebarMenu(main).find((entry) => entry.key === '/model-market/modelMarket');
    expect(models?.label).toBe('模型市场');
    expect(models?.icon).toBe('model');
    expect(models?.children?.map((entry) => entry.label)).toEqual(['文本模型', '视觉模型']);
    expect(sidebarMenu(main).find((entry) => entry.key === '/model-market/model-center/modelCenter')?.icon).toBe('model');
    expect(sidebarMenu(main).map((entry) => entry.key)).not.toContain('/workbench/workbench');
    const visitor = { loggedIn: false, accountType: null, permissions: null };
    expect(sidebarMenu(visitor).map((entry) => entry.key)).toEqual(['/computility-market', '/model-market/model-center/modelCenter']);
    const chat = findRoute('/model-market/modelMarket/chat') ?? NOT_FOUND_ROUTE;
    expect(activeMenuKey(chat)).toBe('/model-market/modelMarket/textModel');
    expect(openMenuKeys(chat)).toEqual(['/model-market/modelMarket']);
  });

  it('leave 模型 out of every sub-account menu: 模型部署 cannot be granted yet', () => {
    for (const permissions of [['CONTAINER' as const], [], ['INVOICE' as const]]) {
      const keys = sidebarMenu({ loggedIn: true, accountType: 2, permissions }).map((entry) => entry.key);
      expect(keys, permissions.join()).not.toContain('/model-market/model-center/modelCenter');
      expect(keys, permissions.join()).not.toContain('/model-market/modelMarket');
    }
    // Once granted, the menus follow.
    const granted = sidebarMenu({ loggedIn: true, accountType: 2, permissions: ['MODEL_DEPLOY'] }).map((entry) => entry.key);
    expect(granted).toContain('/model-market/model-center/modelCenter');
    expect(granted).toContain('/model-market/modelMarket');
  });

  it('highlight the active menu of a route', () => {
    const record = findRoute('/ctrl-container-instances/createInstances') ?? NOT_FOUND_ROUTE;
    expect(activeMenuKey(record)).toBe('/ctrl-container-instances/containerInstances');
    expect(openMenuKeys(record)).toEqual(['/ctrl-container-instances']);
  });
});
