import { describe, expect, it } from 'vitest';
import { consolePagePaths } from './consolePages';
import { flattenRoutes, ROUTES, type LazyPage } from './routes';

describe('consolePagePaths (the pages of the phone-width e2e check)', () => {
  it('lists every console route with a page, and nothing else', () => {
    const paths = consolePagePaths();
    expect(paths).toContain('/ctrl-overview/overview');
    expect(paths).toContain('/exchange');
    expect(paths).toContain('/ctrl-cost-center/cost-center/voucher');
    expect(paths).not.toContain('/login');
    expect(paths).toContain('/computility-market');
    expect(paths).toContain('/ctrl-container-instances/containerInstances');
    expect(paths).toContain('/ctrl-container-instances/confirm-order');
    expect(paths).toContain('/ctrl-data-set/data-set/public-data');
    expect(paths).toContain('/ctrl-data-set/data-set/shared-data');
    // The public list of shared datasets is a desk page, not a console one.
    expect(paths).not.toContain('/share-data');
    // 模型 (issue 23): the public 模型中心 is a console page too.
    expect(paths).toContain('/model-market/model-center/modelCenter');
    expect(paths).toContain('/model-market/modelMarket/textModel');
    expect(paths).toContain('/model-market/modelMarket/visualModel');
    expect(paths).toContain('/model-market/modelMarket/chat');
    // A route without a page is not opened.
    expect(paths).not.toContain('/workbench/workbench/example');
    expect(paths).not.toContain('/model-market/modelMarket');
    const expected = ROUTES.filter((record) => record.page && record.meta.console).map((record) => record.path);
    expect(paths).toEqual(expected);
  });

  it('picks up a new console page from the table', () => {
    const page = (() => null) as unknown as LazyPage;
    const routes = flattenRoutes([
      { path: '/a', meta: { title: 'A', layout: 'dashboard', console: true }, page, children: [{ path: 'b', meta: { title: 'B' }, page }] },
      { path: '/c', meta: { title: 'C', layout: 'dashboard', console: true } },
      { path: '/d', meta: { title: 'D', layout: 'desk' }, page },
    ]);
    expect(consolePagePaths(routes)).toEqual(['/a', '/a/b']);
  });
});
