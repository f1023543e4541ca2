import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { formatYuan } from '@slg/shared';
import type { AppDeps } from '../../deps.js';
import { recharges } from '../../db/schema/index.js';
import { SANDBOX_SIGNATURE_HEADER, SandboxGateway } from '../../providers/payments/sandbox.js';

const CHANNEL_NAMES: Record<string, string> = { WXPAY: '微信支付', ALIPAY: '支付宝', BANK: '对公转账' };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>
body{margin:0;font-family:"PingFang SC","Noto Sans CJK SC","Microsoft YaHei",sans-serif;background:#f0f2f5;color:#1f1f1f;display:flex;min-height:100vh;align-items:center;justify-content:center}
main{background:#fff;border-radius:12px;box-shadow:0 6px 24px rgba(0,0,0,.08);padding:40px 48px;width:min(420px,90vw);text-align:center}
.tag{display:inline-block;background:#fff7e6;color:#d46b08;border:1px solid #ffd591;border-radius:4px;padding:2px 8px;font-size:12px}
h1{font-size:20px;margin:16px 0 8px}.amount{font-size:40px;font-weight:600;margin:16px 0;color:#1677ff}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;text-align:left;font-size:14px;color:#595959;margin:24px 0}dd{margin:0;color:#1f1f1f;word-break:break-all}
button{width:100%;padding:12px;border:0;border-radius:8px;font-size:16px;cursor:pointer;margin-top:8px}
.pay{background:#1677ff;color:#fff}.fail{background:#fff;color:#cf1322;border:1px solid #ffa39e}
p.note{font-size:12px;color:#8c8c8c;margin-top:24px;line-height:1.6}</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The sandbox gateway's own pages (outside /api): what a payer sees after scanning the QR code. Paying
 * here makes the "gateway" send a signed notification, asynchronously, to the real notify endpoint.
 */
export const sandboxGatewayRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    const gateway = deps.payments.get('sandbox');
    if (!(gateway instanceof SandboxGateway)) return;
    // The page posts a plain form; its fields carry nothing we need.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    const load = async (rechargeId: string) => {
      const [row] = await deps.database.db.select().from(recharges).where(eq(recharges.id, rechargeId));
      return row && row.provider === 'sandbox' ? row : undefined;
    };

    app.get<{ Params: { rechargeId: string } }>('/:rechargeId', { schema: { hide: true } }, async (request, reply) => {
      reply.type('text/html; charset=utf-8');
      const row = await load(request.params.rechargeId);
      if (!row) return reply.status(404).send(page('订单不存在', '<h1>支付订单不存在</h1><p class="note">请回到充值页面重新发起充值。</p>'));
      const details = `<dl><dt>商户</dt><dd>${escapeHtml(deps.config.appTitle)}</dd><dt>订单号</dt><dd>${escapeHtml(row.id)}</dd><dt>支付方式</dt><dd>${CHANNEL_NAMES[row.channel] ?? row.channel}</dd></dl>`;
      if (row.status !== 'CREATED' || gateway.isClosed(row.id)) {
        const done = row.status === 'SUCCESS' ? '该订单已支付成功' : '该订单已关闭';
        return page(done, `<span class="tag">沙箱支付</span><h1>${done}</h1><div class="amount">${formatYuan(row.amountFen)}</div>${details}<p class="note">可以关闭此页面，回到充值页面查看结果。</p>`);
      }
      const action = `/sandbox-pay/${encodeURIComponent(row.id)}`;
      return page(
        '沙箱支付',
        `<span class="tag">沙箱支付 · 不会产生真实扣款</span><h1>确认付款</h1><div class="amount">${formatYuan(row.amountFen)}</div>${details}
<form method="post" action="${action}/pay"><button class="pay" type="submit">确认支付</button></form>
<form method="post" action="${action}/cancel"><button class="fail" type="submit">取消支付</button></form>
<p class="note">这是开发环境的模拟支付网关：确认后，网关会像微信支付、支付宝一样向平台发送签名的异步通知，充值页面随即显示到账。</p>`,
      );
    });

    const notify = (rechargeId: string, amountFen: number, status: 'SUCCESS' | 'CLOSED', tradeNo?: string) => {
      const { body, signature } = gateway.notificationFor(rechargeId, amountFen, status, tradeNo);
      // Asynchronous, like a real gateway: the payer's request returns before the platform hears about it.
      setImmediate(() => {
        app
          .inject({
            method: 'POST',
            url: '/api/v1/payment/notify/sandbox',
            headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
            payload: body,
          })
          .then((response) => {
            if (response.statusCode !== 200) app.log.error({ rechargeId, status: response.statusCode }, 'sandbox notification refused');
          })
          .catch((error: unknown) => app.log.error({ err: error, rechargeId }, 'sandbox notification failed'));
      });
    };

    const done = (reply: FastifyReply, title: string, amountFen: number) =>
      reply.send(page(title, `<span class="tag">沙箱支付</span><h1>${title}</h1><div class="amount">${formatYuan(amountFen)}</div><p class="note">可以关闭此页面，回到充值页面查看结果。</p>`));
    const refused = (reply: FastifyReply, title: string) => reply.status(409).send(page(title, `<h1>${title}</h1><p class="note">可以关闭此页面，回到充值页面查看结果。</p>`));

    app.post<{ Params: { rechargeId: string } }>('/:rechargeId/pay', { schema: { hide: true } }, async (request, reply) => {
      reply.type('text/html; charset=utf-8');
      const row = await load(request.params.rechargeId);
      if (!row) return reply.status(404).send(page('订单不存在', '<h1>支付订单不存在</h1>'));
      if (row.status !== 'CREATED') return refused(reply, row.status === 'SUCCESS' ? '该订单已支付，无需重复支付' : '该订单已关闭，无法支付');
      // The gateway's own record decides: a trade the merchant closed cannot be paid any more.
      const trade = gateway.pay(row.id, row.amountFen);
      if (!trade) return refused(reply, '该订单已关闭，无法支付');
      notify(row.id, row.amountFen, 'SUCCESS', trade.tradeNo);
      return done(reply, '支付成功', row.amountFen);
    });

    app.post<{ Params: { rechargeId: string } }>('/:rechargeId/cancel', { schema: { hide: true } }, async (request, reply) => {
      reply.type('text/html; charset=utf-8');
      const row = await load(request.params.rechargeId);
      if (!row) return reply.status(404).send(page('订单不存在', '<h1>支付订单不存在</h1>'));
      if (row.status !== 'CREATED') return refused(reply, '该订单已处理，无需重复操作');
      if ((await gateway.closePayment(row.id)) === 'PAID') return refused(reply, '该订单已支付，无法取消');
      notify(row.id, row.amountFen, 'CLOSED');
      return done(reply, '已取消支付', row.amountFen);
    });
  };
