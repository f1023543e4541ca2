import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { DEV_OAUTH_PREFIX, DEV_OPENID_PATTERN, DEV_WECHAT_APP_ID, DEV_WECHAT_USERS, DevWechat, type DevWechatUser } from './dev.js';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const NICKNAME_MAX = 32;
const CUSTOM = 'custom';

const STYLE = `
:root{color-scheme:light dark;--bg:#f0f2f5;--card:#fff;--text:#1f1f1f;--muted:#8c8c8c;--line:#e5e6eb;--pick:#f6ffed;--pickline:#95de64;--err:#cf1322;--errbg:#fff2f0}
@media (prefers-color-scheme:dark){:root{--bg:#141414;--card:#1f1f1f;--text:#e8e8e8;--muted:#8c8c8c;--line:#303030;--pick:#162312;--pickline:#3c8618;--err:#ff7875;--errbg:#2a1215}}
*{box-sizing:border-box}
body{margin:0;font-family:"PingFang SC","Noto Sans CJK SC","Microsoft YaHei",sans-serif;background:var(--bg);color:var(--text);display:flex;min-height:100vh;align-items:center;justify-content:center;padding:16px}
main{background:var(--card);border-radius:12px;box-shadow:0 6px 24px rgba(0,0,0,.08);padding:32px 32px 24px;width:min(440px,100%)}
.tag{display:inline-block;background:#fff7e6;color:#d46b08;border:1px solid #ffd591;border-radius:4px;padding:2px 8px;font-size:12px}
.head{display:flex;align-items:center;gap:12px;margin:16px 0 4px}
.logo{width:44px;height:44px;border-radius:50%;background:#07c160;color:#fff;display:flex;align-items:center;justify-content:center;font-size:20px;font-weight:600;flex:none}
h1{font-size:20px;margin:0}
p.app{margin:4px 0 20px;color:var(--muted);font-size:14px}
fieldset{border:0;margin:0;padding:0}
legend{font-size:14px;font-weight:600;margin-bottom:8px}
label.user{display:flex;align-items:center;gap:10px;border:1px solid var(--line);border-radius:8px;padding:10px 12px;margin-bottom:8px;cursor:pointer}
label.user:has(input:checked){border-color:var(--pickline);background:var(--pick)}
label.user input{accent-color:#07c160;width:16px;height:16px;margin:0}
.who{display:flex;flex-direction:column;min-width:0}
.who small{color:var(--muted);font-size:12px;overflow-wrap:anywhere}
.custom{display:grid;gap:8px;margin:4px 0 16px 38px}
.custom label{display:grid;gap:4px;font-size:13px;color:var(--muted)}
.custom input{font:inherit;color:var(--text);background:transparent;border:1px solid var(--line);border-radius:6px;padding:8px 10px;width:100%}
.error{background:var(--errbg);color:var(--err);border-radius:6px;padding:8px 12px;font-size:14px;margin:0 0 16px}
button{width:100%;padding:12px;border:0;border-radius:8px;font-size:16px;cursor:pointer;margin-top:8px;font-family:inherit}
.allow{background:#07c160;color:#fff}.deny{background:transparent;color:var(--text);border:1px solid var(--line)}
p.note{font-size:12px;color:var(--muted);margin:20px 0 0;line-height:1.6}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** What the authorise page was opened with (WeChat's qrconnect query). */
interface AuthoriseRequest {
  appid: string;
  redirectUri: string;
  state: string;
}

interface FormValues {
  user: string;
  nickname: string;
  openid: string;
}

function authorisePage(appTitle: string, request: AuthoriseRequest, values: FormValues, error?: string): string {
  const hidden = [
    ['appid', request.appid],
    ['redirect_uri', request.redirectUri],
    ['state', request.state],
  ]
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value ?? '')}">`)
    .join('');
  const choice = (value: string, label: string, detail: string) =>
    `<label class="user"><input type="radio" name="user" value="${escapeHtml(value)}"${values.user === value ? ' checked' : ''}><span class="who"><b>${escapeHtml(label)}</b><small>${escapeHtml(detail)}</small></span></label>`;
  const users = DEV_WECHAT_USERS.map((user) => choice(user.openId, user.nickname, `openid：${user.openId}`)).join('');
  return page(
    '模拟微信扫码授权',
    `<span class="tag">开发环境 · 模拟微信</span>
<div class="head"><div class="logo" aria-hidden="true">微</div><h1>模拟微信扫码授权</h1></div>
<p class="app">「${escapeHtml(appTitle)}」申请使用你的微信身份登录</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${DEV_OAUTH_PREFIX}/qrconnect">${hidden}
<fieldset><legend>选择测试微信用户</legend>${users}${choice(CUSTOM, '其他测试用户', '在下方自行填写')}</fieldset>
<div class="custom">
<label>昵称<input name="nickname" maxlength="${NICKNAME_MAX}" value="${escapeHtml(values.nickname)}" placeholder="例如：测试用户"></label>
<label>openid<input name="openid" maxlength="64" value="${escapeHtml(values.openid)}" placeholder="字母、数字、下划线或连字符" autocomplete="off" spellcheck="false"></label>
</div>
<button class="allow" type="submit" name="decision" value="allow">确认登录</button>
<button class="deny" type="submit" name="decision" value="deny">拒绝</button>
</form>
<p class="note">这是开发环境代替微信扫码页的模拟页面：确认后带着 code 和 state 回到${escapeHtml(appTitle)}，拒绝则只带 state 回去。正式环境请设置 WECHAT_LOGIN_PROVIDER=wechat 并配置微信开放平台网站应用的 AppID 与 AppSecret。</p>`,
  );
}

const errorPage = (message: string) =>
  page('授权参数错误', `<span class="tag">开发环境 · 模拟微信</span><div class="head"><div class="logo" aria-hidden="true">微</div><h1>${escapeHtml(message)}</h1></div><p class="note">请回到登录页重新发起微信登录。</p>`);

function first(value: unknown): string {
  if (Array.isArray(value)) return first(value[0]);
  return typeof value === 'string' ? value : '';
}

/**
 * The stand-in for WeChat of the `dev` provider (mounted at DEV_OAUTH_PREFIX only when
 * WECHAT_LOGIN_PROVIDER=dev, which production refuses): the authorise page and the two API calls.
 */
export const devOAuthRoutes =
  (deps: AppDeps): FastifyPluginAsync =>
  async (app) => {
    const wechat = new DevWechat(deps.now);
    const origin = new URL(deps.config.publicUrl).origin;
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });

    /** WeChat's own checks of the authorise request, with its wording; null when it is acceptable. */
    const problemOf = (request: AuthoriseRequest): string | null => {
      if (request.appid !== DEV_WECHAT_APP_ID) return 'AppID 参数错误';
      let redirect: URL;
      try {
        redirect = new URL(request.redirectUri);
      } catch {
        return 'redirect_uri 参数错误';
      }
      // WeChat accepts only the callback domain registered for the app; here, this server's public address.
      if (redirect.origin !== origin) return 'redirect_uri 参数错误';
      return null;
    };

    const html = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/html; charset=utf-8').send(body);

    app.get('/qrconnect', { schema: { hide: true } }, async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const authorise = { appid: first(query.appid), redirectUri: first(query.redirect_uri), state: first(query.state) };
      const problem = problemOf(authorise);
      if (problem) return html(reply, 400, errorPage(problem));
      if (first(query.response_type) !== 'code') return html(reply, 400, errorPage('response_type 参数错误'));
      if (first(query.scope) !== 'snsapi_login') return html(reply, 400, errorPage('scope 参数错误或没有 scope 权限'));
      const firstUser = DEV_WECHAT_USERS[0]?.openId ?? CUSTOM;
      return html(reply, 200, authorisePage(deps.config.appTitle, authorise, { user: firstUser, nickname: '', openid: '' }));
    });

    app.post('/qrconnect', { schema: { hide: true } }, async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const authorise = { appid: first(body.appid), redirectUri: first(body.redirect_uri), state: first(body.state) };
      const problem = problemOf(authorise);
      if (problem) return html(reply, 400, errorPage(problem));
      const target = new URL(authorise.redirectUri);
      if (first(body.decision) !== 'allow') {
        // Refused: WeChat goes back with the state only, no code.
        if (authorise.state) target.searchParams.set('state', authorise.state);
        return reply.redirect(target.toString(), 302);
      }
      const values: FormValues = { user: first(body.user), nickname: first(body.nickname).trim(), openid: first(body.openid).trim() };
      let user: DevWechatUser | undefined;
      if (values.user === CUSTOM) {
        if (values.nickname === '' || Array.from(values.nickname).length > NICKNAME_MAX) {
          return html(reply, 400, authorisePage(deps.config.appTitle, authorise, values, `请填写昵称（1-${NICKNAME_MAX}个字符）`));
        }
        if (!DEV_OPENID_PATTERN.test(values.openid)) {
          return html(reply, 400, authorisePage(deps.config.appTitle, authorise, values, 'openid 为1-64位字母、数字、下划线或连字符'));
        }
        user = { openId: values.openid, nickname: values.nickname };
      } else {
        user = DEV_WECHAT_USERS.find((candidate) => candidate.openId === values.user);
        if (!user) return html(reply, 400, authorisePage(deps.config.appTitle, authorise, values, '请选择一个测试微信用户'));
      }
      target.searchParams.set('code', wechat.issueCode(user));
      if (authorise.state) target.searchParams.set('state', authorise.state);
      return reply.redirect(target.toString(), 302);
    });

    // Called by this server's own WechatOAuthClient (in process): no rate limit of their own.
    app.get('/sns/oauth2/access_token', { schema: { hide: true }, config: { rateLimit: false } }, async (request) => {
      const query = request.query as Record<string, unknown>;
      return wechat.accessToken({ appid: first(query.appid), secret: first(query.secret), code: first(query.code), grant_type: first(query.grant_type) });
    });

    app.get('/sns/userinfo', { schema: { hide: true }, config: { rateLimit: false } }, async (request) => {
      const query = request.query as Record<string, unknown>;
      return wechat.userInfo({ access_token: first(query.access_token), openid: first(query.openid) });
    });
  };
