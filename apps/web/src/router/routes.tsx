/**
 * The one route table of the console (spec §2, DESIGN §8). Every route of the description is here with
 * its meta; `page` is set only for pages that exist. A route without a page renders the 404 screen
 * after the guards ran, and menus never show it.
 *
 * Children are written relative to their parent and inherit `layout`, `console` and `permission`;
 * their breadcrumb parent defaults to the parent route.
 */
import type { AuthorityType } from '@slg/shared';
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ColorModePreference } from '../stores/colorMode';

export type LayoutKind = 'desk' | 'dashboard' | 'default';
export type SignupDialog = 'privacy' | 'service' | 'verify';
export type MenuIcon = 'overview' | 'market' | 'container' | 'elastic' | 'storage' | 'image' | 'dataset' | 'model' | 'workbench' | 'cost' | 'personal';

export interface RouteMeta {
  /** Chinese title: document title, menus, breadcrumb. */
  title?: string;
  layout: LayoutKind;
  /** Shown in the console sidebar (when it has a page). */
  sidebar?: boolean;
  /** Shown in the public header navigation (when it has a page). */
  headerNav?: boolean;
  /** Belongs to the console. */
  console?: boolean;
  /** A sub-account may open it whatever its permissions. */
  subAccountPage?: boolean;
  /** About the sub-account itself: a main account's menus leave it out. */
  subAccountOnly?: boolean;
  /** Authority type a sub-account needs (spec §6). */
  permission?: AuthorityType;
  /** Keep the parent menu even with a single visible child. */
  alwaysShow?: boolean;
  /** Path of the breadcrumb parent. */
  breadcrumb?: string;
  /** Sidebar entry highlighted while this route is open. */
  activeMenu?: string;
  /** Reachable without login. */
  public?: boolean;
  /** For visitors only (registration): a signed-in account is sent to its console. Children inherit it. */
  guestOnly?: boolean;
  /** Page-level colour mode; `system` is refused with a warning. */
  forceColorMode?: ColorModePreference;
  /** Signup dialog opened by this sub-path. */
  dialog?: SignupDialog;
  icon?: MenuIcon;
}

export type PageModule = { default: ComponentType };

/**
 * A route-level chunk. `preload` fetches the module without rendering: the router loads it together
 * with the layout and the root loader and renders the component it exports.
 */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload?: () => Promise<PageModule> };

function lazyPage(load: () => Promise<PageModule>): LazyPage {
  return Object.assign(lazy(load), { preload: load });
}

export interface RouteNode {
  path: string;
  meta: Omit<RouteMeta, 'layout'> & { layout?: LayoutKind };
  page?: LazyPage;
  children?: RouteNode[];
}

export interface RouteRecord {
  /** Absolute path. */
  path: string;
  meta: RouteMeta;
  page?: LazyPage;
  parentPath?: string;
  /** Absolute paths of the children. */
  childPaths: string[];
}

// Pages built by the public-pages helper (apps/web/src/pages/desk).
const DeskHomePage = lazyPage(() => import('../pages/desk/home/index'));
const DeskAboutPage = lazyPage(() => import('../pages/desk/about/index'));
const DeskServiceTermsPage = lazyPage(() => import('../pages/desk/terms/ServiceTerms'));
const DeskPrivacyTermsPage = lazyPage(() => import('../pages/desk/terms/PrivacyTerms'));
const DeskWelcomePage = lazyPage(() => import('../pages/desk/welcome/index'));
const DeskShareDataPage = lazyPage(() => import('../pages/desk/share-data/index'));
// Pages of the console core.
const LoginPage = lazyPage(() => import('../pages/login/index'));
const SubAccountLoginPage = lazyPage(() => import('../pages/sub-account-login/index'));
const SubAccountInfoPage = lazyPage(() => import('../pages/ctrl-child-info/child-account-info/index'));
const SignupPage = lazyPage(() => import('../pages/signup/index'));
const ResetPasswordPage = lazyPage(() => import('../pages/reset-password/index'));
const ForbiddenPage = lazyPage(() => import('../pages/error/ForbiddenPage'));
const NotFoundPage = lazyPage(() => import('../pages/error/NotFoundPage'));
const ServerErrorPage = lazyPage(() => import('../pages/error/ServerErrorPage'));
const AppErrorPage = lazyPage(() => import('../pages/error/AppErrorPage'));
const OverviewPage = lazyPage(() => import('../pages/ctrl-overview/overview/index'));
// Pages of the cost centre (issue 3).
const ExchangePage = lazyPage(() => import('../pages/exchange/index'));
const CostCenterPage = lazyPage(() => import('../pages/ctrl-cost-center/cost-center/index'));
const RechargePage = lazyPage(() => import('../pages/ctrl-cost-center/recharge/index'));
const RechargeRecordPage = lazyPage(() => import('../pages/ctrl-cost-center/recharge-record/index'));
const OrderPage = lazyPage(() => import('../pages/ctrl-cost-center/order/index'));
const OrderDetailPage = lazyPage(() => import('../pages/ctrl-cost-center/order-detail/index'));
const BillDetailsPage = lazyPage(() => import('../pages/ctrl-cost-center/f-details/index'));
const IncomeDetailsPage = lazyPage(() => import('../pages/ctrl-cost-center/income-details/index'));
const InvoicePage = lazyPage(() => import('../pages/ctrl-cost-center/invoice/index'));
const InvoiceInfoPage = lazyPage(() => import('../pages/ctrl-cost-center/invoice-info/index'));
const MakeBillInvoicePage = lazyPage(() => import('../pages/ctrl-cost-center/make-bill-invoice/index'));
const MakePriceInvoicePage = lazyPage(() => import('../pages/ctrl-cost-center/make-price-invoice/index'));
const VoucherPage = lazyPage(() => import('../pages/ctrl-cost-center/voucher/index'));
// Compute: the market and container instances (issue 7).
const MarketPage = lazyPage(() => import('../pages/computility-market/index'));
const ContainerInstancesPage = lazyPage(() => import('../pages/ctrl-container-instances/containerInstances/index'));
const CreateInstancePage = lazyPage(() => import('../pages/ctrl-container-instances/createInstances/index'));
const CloneInstancesPage = lazyPage(() => import('../pages/ctrl-container-instances/cloneInstances/index'));
const ConfirmOrderPage = lazyPage(() => import('../pages/ctrl-container-instances/confirm-order/index'));
const ConfirmCloneOrderPage = lazyPage(() => import('../pages/ctrl-container-instances/confirm-clone-order/index'));
const SshSetPage = lazyPage(() => import('../pages/ctrl-container-instances/sshSet/index'));
const AccountSettingsPage = lazyPage(() => import('../pages/ctrl-personal-center/account-settings/index'));
const InstanceMonitoringPage = lazyPage(() => import('../pages/ctrl-container-instances/instance-monitoring/index'));
const InstanceTerminalPage = lazyPage(() => import('../pages/ctrl-container-instances/terminal/index'));
const UpDownSettingPage = lazyPage(() => import('../pages/ctrl-container-instances/upDownSetting/index'));
const PriceDetailPage = lazyPage(() => import('../pages/ctrl-container-instances/priceDetail/index'));
const RenewPage = lazyPage(() => import('../pages/ctrl-container-instances/renew/index'));
const PayByVolumePage = lazyPage(() => import('../pages/ctrl-container-instances/payByVolume/index'));
const YearMonthPackagesPage = lazyPage(() => import('../pages/ctrl-container-instances/yearMonthPackages/index'));
// 我的镜像 (issue 8).
const MirrorImagePage = lazyPage(() => import('../pages/ctrl-mirror-image/mirrorImage/index'));
// 文件存储 (issue 22).
const FileStoragePage = lazyPage(() => import('../pages/ctrl-file-storage/file-storage/index'));
// 数据集: 公开数据集 and 共享数据集 (issue 22).
const PublicDataPage = lazyPage(() => import('../pages/ctrl-data-set/public-data/index'));
const SharedDataPage = lazyPage(() => import('../pages/ctrl-data-set/shared-data/index'));
// 弹性部署 (issue 21).
const ElasticListPage = lazyPage(() => import('../pages/ctrl-flexible-deployment/flexiible-deployment/index'));
const ElasticCreatePage = lazyPage(() => import('../pages/ctrl-flexible-deployment/create-flexible/index'));
const ElasticViewPage = lazyPage(() => import('../pages/ctrl-flexible-deployment/view-container/index'));
const ElasticReleasedPage = lazyPage(() => import('../pages/ctrl-flexible-deployment/release-instance/index'));
const TimePacksPage = lazyPage(() => import('../pages/ctrl-flexible-deployment/time-packs/index'));
// 模型: 模型中心, 模型市场 (文本模型, 视觉模型) and 模型对话 (issue 23). 工作台 (model instances) is not built.
const ModelCenterPage = lazyPage(() => import('../pages/model-market/model-center/index'));
const TextModelPage = lazyPage(() => import('../pages/model-market/text-model/index'));
const VisualModelPage = lazyPage(() => import('../pages/model-market/visual-model/index'));
const ModelChatPage = lazyPage(() => import('../pages/model-market/chat/index'));
// 个人中心 · 设置: API令牌 (issue 9).
const SettingPage = lazyPage(() => import('../pages/ctrl-personal-center/setting/index'));
const ChargingRecordPage = lazyPage(() => import('../pages/ctrl-personal-center/charging-record/index'));
// 个人中心 · 子账号管理 and 子账号权限设置 (issue 9).
const ChildAccountPage = lazyPage(() => import('../pages/ctrl-personal-center/child-account/index'));
const ChildAccountDetailPage = lazyPage(() => import('../pages/ctrl-personal-center/child-account-detail/index'));
// 个人中心 · 实名认证 (issue 9).
const AuthenticationPage = lazyPage(() => import('../pages/ctrl-personal-center/authentication/index'));
const PersonVerificationPage = lazyPage(() => import('../pages/ctrl-personal-center/person-page/index'));
const EnterpriseVerificationPage = lazyPage(() => import('../pages/ctrl-personal-center/enter-page/index'));
const StudentVerificationPage = lazyPage(() => import('../pages/ctrl-personal-center/edu-page/index'));
const SchoolVerificationPage = lazyPage(() => import('../pages/ctrl-personal-center/school-page/index'));

/** Where a sign-in lands without a `redirect` query. */
export const CONSOLE_HOME_PATH = '/ctrl-overview/overview';
/** Where a sub-account's sign-in lands: its own page (it may not hold what the overview shows). */
export const SUB_ACCOUNT_HOME_PATH = '/ctrl-child-info/child-account-info';

export const ROUTE_TABLE: RouteNode[] = [
  // ── Public pages (desk layout) ──────────────────────────────────────────────
  { path: '/', meta: { title: '首页', layout: 'desk', public: true, headerNav: true }, page: DeskHomePage },
  { path: '/home', meta: { title: '首页', layout: 'desk', public: true }, page: DeskHomePage },
  {
    path: '/news',
    meta: { title: '新闻资讯', layout: 'desk', public: true, headerNav: true, subAccountPage: true },
    children: [{ path: 'list', meta: { title: '新闻列表', public: true, subAccountPage: true } }],
  },
  { path: '/latest-activities', meta: { title: '最新活动', layout: 'desk', public: true, headerNav: true } },
  { path: '/activities-detail', meta: { title: '活动详情', layout: 'desk', public: true, breadcrumb: '/latest-activities' } },
  { path: '/share-data', meta: { title: '共享数据', layout: 'desk', public: true }, page: DeskShareDataPage },
  { path: '/about', meta: { title: '关于我们', layout: 'desk', public: true, headerNav: true }, page: DeskAboutPage },
  { path: '/terms/service-terms', meta: { title: '服务条款', layout: 'desk', public: true }, page: DeskServiceTermsPage },
  { path: '/terms/privacy-terms', meta: { title: '隐私政策', layout: 'desk', public: true }, page: DeskPrivacyTermsPage },
  { path: '/welcome', meta: { title: '欢迎', layout: 'desk', public: true }, page: DeskWelcomePage },

  // ── Accounts (default layout) ───────────────────────────────────────────────
  { path: '/login', meta: { title: '登录', layout: 'default', public: true }, page: LoginPage },
  { path: '/sub-account-login', meta: { title: '子账号登录', layout: 'default', public: true }, page: SubAccountLoginPage },
  {
    path: '/signup',
    meta: { title: '注册', layout: 'default', public: true, guestOnly: true },
    page: SignupPage,
    children: [
      { path: 'privacy', meta: { title: '隐私政策', public: true, dialog: 'privacy' } },
      { path: 'service', meta: { title: '服务条款', public: true, dialog: 'service' } },
      { path: 'verify', meta: { title: '短信验证', public: true, dialog: 'verify' } },
    ],
  },
  { path: '/register', meta: { title: '注册', layout: 'default', public: true, guestOnly: true }, page: SignupPage },
  { path: '/reset-password', meta: { title: '重置密码', layout: 'default', public: true }, page: ResetPasswordPage },
  { path: '/exchange', meta: { title: '兑换码兑换', layout: 'dashboard', console: true }, page: ExchangePage },
  { path: '/form', meta: { title: '信息填写', layout: 'default' } },

  // ── Error screens ───────────────────────────────────────────────────────────
  { path: '/403', meta: { title: '没有权限', layout: 'default', public: true }, page: ForbiddenPage },
  { path: '/404', meta: { title: '页面不存在', layout: 'default', public: true }, page: NotFoundPage },
  { path: '/500', meta: { title: '服务器错误', layout: 'default', public: true }, page: ServerErrorPage },
  { path: '/error', meta: { title: '应用错误', layout: 'default', public: true }, page: AppErrorPage },

  // ── Console (dashboard layout) ──────────────────────────────────────────────
  {
    path: '/ctrl-overview/overview',
    meta: { title: '总览', layout: 'dashboard', console: true, sidebar: true, icon: 'overview' },
    page: OverviewPage,
  },
  {
    path: '/computility-market',
    meta: {
      title: '算力市场',
      layout: 'dashboard',
      console: true,
      public: true,
      sidebar: true,
      headerNav: true,
      subAccountPage: true,
      permission: 'CONTAINER',
      icon: 'market',
    },
    page: MarketPage,
    // The same page with that step focused.
    children: [
      { path: 'method', meta: { title: '选择计费方式', activeMenu: '/computility-market' }, page: MarketPage },
      { path: 'model', meta: { title: '选择GPU型号', activeMenu: '/computility-market' }, page: MarketPage },
      { path: 'quantity', meta: { title: '选择GPU数量', activeMenu: '/computility-market' }, page: MarketPage },
      { path: 'region', meta: { title: '选择地区', activeMenu: '/computility-market' }, page: MarketPage },
    ],
  },
  {
    path: '/ctrl-container-instances',
    meta: {
      title: '容器实例',
      layout: 'dashboard',
      console: true,
      sidebar: true,
      alwaysShow: true,
      permission: 'CONTAINER',
      icon: 'container',
    },
    children: [
      { path: 'containerInstances', meta: { title: '实例列表', sidebar: true }, page: ContainerInstancesPage },
      {
        path: 'createInstances',
        meta: { title: '创建实例', subAccountPage: true, activeMenu: '/ctrl-container-instances/containerInstances' },
        page: CreateInstancePage,
      },
      {
        path: 'cloneInstances',
        meta: { title: '克隆实例', activeMenu: '/ctrl-container-instances/containerInstances' },
        page: CloneInstancesPage,
      },
      {
        path: 'confirm-order',
        meta: { title: '确认订单', activeMenu: '/ctrl-container-instances/containerInstances' },
        page: ConfirmOrderPage,
      },
      {
        path: 'confirm-clone-order',
        meta: { title: '确认克隆订单', activeMenu: '/ctrl-container-instances/containerInstances' },
        page: ConfirmCloneOrderPage,
      },
      {
        path: 'instance-monitoring',
        meta: { title: '实例监控', activeMenu: '/ctrl-container-instances/containerInstances' },
        page: InstanceMonitoringPage,
      },
      {
        path: 'terminal',
        meta: { title: '终端', activeMenu: '/ctrl-container-instances/containerInstances' },
        page: InstanceTerminalPage,
      },
      {
        path: 'payByVolume',
        meta: { title: '转按量计费', activeMenu: '/ctrl-container-instances/containerInstances' },
        page: PayByVolumePage,
      },
      { path: 'renew', meta: { title: '续费', activeMenu: '/ctrl-container-instances/containerInstances' }, page: RenewPage },
      { path: 'sshSet', meta: { title: 'SSH公钥', sidebar: true }, page: SshSetPage },
      {
        path: 'upDownSetting',
        meta: { title: '升降配置', activeMenu: '/ctrl-container-instances/containerInstances' },
        page: UpDownSettingPage,
      },
      {
        path: 'yearMonthPackages',
        meta: { title: '包年包月', activeMenu: '/ctrl-container-instances/containerInstances' },
        page: YearMonthPackagesPage,
      },
      { path: 'priceDetail', meta: { title: '价格详情', activeMenu: '/ctrl-container-instances/containerInstances' }, page: PriceDetailPage },
    ],
  },
  {
    path: '/ctrl-flexible-deployment/flexiible-deployment',
    meta: { title: '弹性部署', layout: 'dashboard', console: true, sidebar: true, alwaysShow: true, permission: 'ELASTIC', icon: 'elastic' },
    children: [
      { path: 'flexiible-deployment', meta: { title: '部署列表', sidebar: true }, page: ElasticListPage },
      {
        path: 'create-flexible',
        meta: { title: '创建弹性部署', activeMenu: '/ctrl-flexible-deployment/flexiible-deployment/flexiible-deployment' },
        page: ElasticCreatePage,
      },
      { path: 'release-instance', meta: { title: '已释放实例', sidebar: true }, page: ElasticReleasedPage },
      { path: 'time-packs', meta: { title: '时长包', sidebar: true }, page: TimePacksPage },
      {
        path: 'view-container',
        meta: { title: '查看容器', activeMenu: '/ctrl-flexible-deployment/flexiible-deployment/flexiible-deployment' },
        page: ElasticViewPage,
      },
    ],
  },
  {
    path: '/ctrl-file-storage/file-storage',
    meta: { title: '文件存储', layout: 'dashboard', console: true, sidebar: true, permission: 'FILE_STORAGE', icon: 'storage' },
    page: FileStoragePage,
  },
  {
    path: '/ctrl-mirror-image/mirrorImage',
    meta: { title: '我的镜像', layout: 'dashboard', console: true, sidebar: true, permission: 'MIRROR', icon: 'image' },
    page: MirrorImagePage,
  },
  {
    path: '/ctrl-data-set/data-set',
    meta: { title: '数据集', layout: 'dashboard', console: true, sidebar: true, alwaysShow: true, subAccountPage: true, icon: 'dataset' },
    children: [
      { path: 'public-data', meta: { title: '公开数据集', sidebar: true }, page: PublicDataPage },
      { path: 'shared-data', meta: { title: '共享数据集', sidebar: true, subAccountPage: true }, page: SharedDataPage },
    ],
  },
  {
    path: '/model-market/model-center/modelCenter',
    meta: {
      title: '模型中心',
      layout: 'dashboard',
      console: true,
      public: true,
      sidebar: true,
      headerNav: true,
      permission: 'MODEL_DEPLOY',
      icon: 'model',
    },
    page: ModelCenterPage,
  },
  {
    path: '/model-market/modelMarket',
    meta: { title: '模型市场', layout: 'dashboard', console: true, sidebar: true, alwaysShow: true, permission: 'MODEL_DEPLOY', icon: 'model' },
    children: [
      { path: 'textModel', meta: { title: '文本模型', sidebar: true }, page: TextModelPage },
      { path: 'visualModel', meta: { title: '视觉模型', sidebar: true }, page: VisualModelPage },
      { path: 'chat', meta: { title: '模型对话', activeMenu: '/model-market/modelMarket/textModel' }, page: ModelChatPage },
    ],
  },
  {
    path: '/workbench/workbench',
    meta: { title: '工作台', layout: 'dashboard', console: true, sidebar: true, alwaysShow: true, permission: 'MODEL_DEPLOY', icon: 'workbench' },
    children: [
      { path: 'example', meta: { title: '模型实例', sidebar: true } },
      { path: 'instanceDetail', meta: { title: '实例详情', activeMenu: '/workbench/workbench/example' } },
    ],
  },
  {
    path: '/ctrl-cost-center/cost-center',
    meta: { title: '费用中心', layout: 'dashboard', console: true, sidebar: true, alwaysShow: true, permission: 'INVOICE', icon: 'cost' },
    page: CostCenterPage,
    children: [
      { path: 'recharge', meta: { title: '充值', sidebar: true }, page: RechargePage },
      { path: 'recharge-record', meta: { title: '充值记录', sidebar: true }, page: RechargeRecordPage },
      { path: 'order', meta: { title: '我的订单', sidebar: true }, page: OrderPage },
      { path: 'order-detail', meta: { title: '订单详情', activeMenu: '/ctrl-cost-center/cost-center/order' }, page: OrderDetailPage },
      { path: 'f-details', meta: { title: '账单明细', sidebar: true }, page: BillDetailsPage },
      { path: 'income-details', meta: { title: '收支明细', sidebar: true }, page: IncomeDetailsPage },
      { path: 'invoice', meta: { title: '发票管理', sidebar: true }, page: InvoicePage },
      { path: 'invoice-info', meta: { title: '发票信息', activeMenu: '/ctrl-cost-center/cost-center/invoice' }, page: InvoiceInfoPage },
      { path: 'make-bill-invoice', meta: { title: '按账单开票', activeMenu: '/ctrl-cost-center/cost-center/invoice' }, page: MakeBillInvoicePage },
      { path: 'make-price-invoice', meta: { title: '按充值开票', activeMenu: '/ctrl-cost-center/cost-center/invoice' }, page: MakePriceInvoicePage },
      { path: 'voucher', meta: { title: '代金券', sidebar: true }, page: VoucherPage },
    ],
  },
  {
    path: '/ctrl-personal-center/personal-center',
    meta: {
      title: '个人中心',
      layout: 'dashboard',
      console: true,
      sidebar: true,
      alwaysShow: true,
      subAccountPage: true,
      icon: 'personal',
    },
    children: [
      { path: 'account-settings', meta: { title: '账号设置', sidebar: true }, page: AccountSettingsPage },
      { path: 'authentication', meta: { title: '实名认证', sidebar: true }, page: AuthenticationPage },
      { path: 'person-page', meta: { title: '个人认证', activeMenu: '/ctrl-personal-center/personal-center/authentication' }, page: PersonVerificationPage },
      { path: 'enter-page', meta: { title: '企业认证', activeMenu: '/ctrl-personal-center/personal-center/authentication' }, page: EnterpriseVerificationPage },
      { path: 'edu-page', meta: { title: '学生认证', activeMenu: '/ctrl-personal-center/personal-center/authentication' }, page: StudentVerificationPage },
      { path: 'school-page', meta: { title: '学校认证', activeMenu: '/ctrl-personal-center/personal-center/authentication' }, page: SchoolVerificationPage },
      { path: 'charging-record', meta: { title: '计费记录', sidebar: true, permission: 'CONTAINER' }, page: ChargingRecordPage },
      { path: 'child-account', meta: { title: '子账号管理', sidebar: true }, page: ChildAccountPage },
      {
        path: 'child-account-detail',
        meta: { title: '子账号权限设置', activeMenu: '/ctrl-personal-center/personal-center/child-account' },
        page: ChildAccountDetailPage,
      },
      { path: 'setting', meta: { title: '设置', sidebar: true, subAccountPage: true }, page: SettingPage },
    ],
  },
  {
    path: '/ctrl-child-info/child-account-info',
    meta: { title: '账号信息', layout: 'dashboard', console: true, sidebar: true, subAccountPage: true, subAccountOnly: true, icon: 'personal' },
    page: SubAccountInfoPage,
  },
];

/** What an unknown path resolves to: public, so it shows 页面不存在 after the guards. */
export const NOT_FOUND_ROUTE: RouteRecord = {
  path: '*',
  meta: { title: '页面不存在', layout: 'default', public: true },
  childPaths: [],
};

function joinPath(parent: string, child: string): string {
  return `${parent.replace(/\/$/, '')}/${child.replace(/^\//, '')}`;
}

/** Depth-first flattening with meta inheritance; keeps the table order. */
export function flattenRoutes(nodes: readonly RouteNode[], parent?: RouteRecord): RouteRecord[] {
  const records: RouteRecord[] = [];
  for (const node of nodes) {
    const path = parent ? joinPath(parent.path, node.path) : node.path;
    const meta: RouteMeta = {
      ...node.meta,
      layout: node.meta.layout ?? parent?.meta.layout ?? 'default',
      console: node.meta.console ?? parent?.meta.console,
      permission: node.meta.permission ?? parent?.meta.permission,
      guestOnly: node.meta.guestOnly ?? parent?.meta.guestOnly,
      breadcrumb: node.meta.breadcrumb ?? parent?.path,
    };
    const record: RouteRecord = { path, meta, page: node.page, parentPath: parent?.path, childPaths: [] };
    records.push(record);
    if (node.children?.length) {
      const children = flattenRoutes(node.children, record);
      record.childPaths = children.filter((child) => child.parentPath === path).map((child) => child.path);
      records.push(...children);
    }
  }
  return records;
}

export const ROUTES: readonly RouteRecord[] = flattenRoutes(ROUTE_TABLE);

function normalizePath(pathname: string): string {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return (trimmed || '/').toLowerCase();
}

const ROUTES_BY_PATH = new Map<string, RouteRecord>(ROUTES.map((record) => [normalizePath(record.path), record]));

/** The route of a pathname (case-insensitive, trailing slash ignored, like React Router). */
export function resolveRoute(pathname: string): RouteRecord {
  return ROUTES_BY_PATH.get(normalizePath(pathname)) ?? NOT_FOUND_ROUTE;
}

export function findRoute(path: string): RouteRecord | undefined {
  return ROUTES_BY_PATH.get(normalizePath(path));
}

/** The breadcrumb chain of a route, root first. */
export function breadcrumbTrail(record: RouteRecord): RouteRecord[] {
  const trail: RouteRecord[] = [record];
  const seen = new Set<string>([record.path]);
  let parentPath = record.meta.breadcrumb;
  while (parentPath && !seen.has(parentPath)) {
    const parent = findRoute(parentPath);
    if (!parent) break;
    trail.unshift(parent);
    seen.add(parent.path);
    parentPath = parent.meta.breadcrumb;
  }
  return trail;
}
