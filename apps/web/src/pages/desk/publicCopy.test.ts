/**
 * Nothing names a product before it works (issue 17): the public copy — 首页, 欢迎, 关于我们 and the panel
 * beside the sign-in forms — names no console product whose pages are not built yet (derived from the
 * route table, so a product is allowed the day its first page is), no authority type that cannot be
 * granted yet, and no JupyterLab (instances offer SSH, not a notebook).
 */
import { AUTHORITY_TYPE_LABELS, AUTHORITY_TYPES, isOfferedAuthorityType } from '@slg/shared';
import { describe, expect, it } from 'vitest';
import { AUTH_SHELL_TEXTS } from '../../components/texts';
import { ROUTES, type RouteRecord } from '../../router/routes';
import { ABOUT_TEXTS } from './about/texts';
import { HOME_TEXTS } from './home/texts';
import { WELCOME_TEXTS } from './welcome/texts';

function hasBuiltPage(record: RouteRecord): boolean {
  return Boolean(record.page) || record.childPaths.some((path) => hasBuiltPage(ROUTES.find((child) => child.path === path) as RouteRecord));
}

/** Titles of the console's top-level products with no page at all. */
function unbuiltProducts(): string[] {
  return ROUTES.filter((record) => !record.parentPath && record.meta.console && record.meta.sidebar && !hasBuiltPage(record)).map(
    (record) => record.meta.title ?? record.path,
  );
}

const NOT_YET = [
  ...unbuiltProducts(),
  ...AUTHORITY_TYPES.filter((type) => !isOfferedAuthorityType(type)).map((type) => AUTHORITY_TYPE_LABELS[type]),
  'Jupyter',
];

describe('public copy', () => {
  it('knows which products are not built yet', () => {
    // 模型中心 and 模型市场 exist (issue 23); 工作台 (model instances) does not, nor may 模型部署 be granted.
    expect(new Set(NOT_YET)).toEqual(new Set(['工作台', '模型部署', 'Jupyter']));
  });

  it.each([
    ['首页', HOME_TEXTS],
    ['欢迎', WELCOME_TEXTS],
    ['关于我们', ABOUT_TEXTS],
    ['登录面板', AUTH_SHELL_TEXTS],
  ])('%s names none of them', (_page, texts) => {
    const copy = JSON.stringify(texts);
    expect(NOT_YET.filter((name) => copy.includes(name))).toEqual([]);
  });
});
