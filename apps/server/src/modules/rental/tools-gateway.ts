import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { Duplex, Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import WebSocket from 'ws';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../core/errors.js';
import { principalOf, requireAuthority } from '../../http/auth.js';
import { envelopeOf, ok } from '../../http/envelope.js';
import { errors, instanceIdField } from './routes.js';
import { MACHINE_TOOL_PORTS, TENSORBOARD_LOG_DIR } from '../../compute/docker/machine-files.js';
import { SshTunnels } from './ssh-tunnels.js';
import { TerminalService, type TerminalTarget } from './terminal.js';

/** The tools of 快捷工具 reached through the gateway, by where each listens on a machine's loopback (machine-files.ts starts them). */
export type InstanceTool = keyof typeof MACHINE_TOOL_PORTS;
const COOKIE = 'slg_tools';
const COOKIE_PURPOSE = 'instance-tools-cookie';
/** A tool opened from the console stays open this long (and never longer than the console session). */
const COOKIE_SECONDS = 8 * 3600;
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host']);

/** The path of a tool of an instance on the platform's gateway. */
export function toolPath(instanceId: string, tool: InstanceTool): string {
  return `/tools/${instanceId}/${tool}/`;
}

export const TOOLS_TEXTS = {
  forbidden: '没有权限访问该实例的工具：请登录后在控制台的实例列表中打开',
  notReady: {
    jupyter: () => 'Jupyter 尚未就绪：实例刚开机时需要几秒钟启动，请稍后刷新；自定义镜像需自带 Jupyter',
    tensorboard: (instanceId: string) =>
      `TensorBoard 未运行：镜像带有 tensorboard 时，实例开机即自动启动并读取 ${TENSORBOARD_LOG_DIR} 中的日志；` +
      `镜像中没有时，请先安装（pip install tensorboard），再在终端运行 <code>tensorboard --logdir ${TENSORBOARD_LOG_DIR} --host 127.0.0.1 --port ${MACHINE_TOOL_PORTS.tensorboard} --path_prefix ${toolPath(instanceId, 'tensorboard').slice(0, -1)}</code> 后刷新本页`,
  },
} as const;

function cookiesNamed(header: string | undefined, name: string): string[] {
  return (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${name}=`))
    .map((part) => decodeURIComponent(part.slice(name.length + 1)));
}

/** The request's cookies without the gateway's own (the tool never sees it). */
function cookiesForTool(header: string | undefined): string | undefined {
  const kept = (header ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !part.startsWith(`${COOKIE}=`));
  return kept.length > 0 ? kept.join('; ') : undefined;
}

function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const forwarded: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name === 'cookie') continue;
    forwarded[name] = value;
  }
  const cookie = cookiesForTool(headers.cookie);
  if (cookie) forwarded.cookie = cookie;
  // Jupyter checks a WebSocket's Origin against the Host it was asked under: the platform's.
  if (headers.host) forwarded.host = headers.host;
  return forwarded;
}

function page(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(`<!doctype html><html lang="zh-CN"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>算力港</title><body style="font-family:sans-serif;padding:24px"><p>${message}</p></body></html>`);
}

/**
 * 快捷工具 › Jupyter and TensorBoard: the platform is the HTTP gateway to the tools inside a machine. The console asks
 * `POST /rental/tools/session` (the caller's scope and the instance's state checked like every instance
 * action), which sets a sealed cookie scoped to `/tools/<instanceId>/` and bound to the console session;
 * the tab it opens then reaches `/tools/<instanceId>/<tool>/…`, HTTP and WebSockets alike, relayed over
 * an SSH channel to the machine's loopback. Anyone without that cookie (another account, a signed-out
 * browser) gets 403; the tools need no token of their own, since nothing but root inside the machine and
 * this gateway can reach them.
 */
export class ToolsGateway {
  readonly tunnels = new SshTunnels();
  private readonly terminals: TerminalService;
  private readonly targets = new WeakMap<FastifyRequest, TerminalTarget>();

  constructor(deps: AppDeps) {
    this.terminals = new TerminalService(deps);
  }

  async openSession(
    principal: Parameters<TerminalService['assertOpenable']>[0],
    instanceId: string,
    secure: boolean,
  ): Promise<{ cookie: string; jupyterUrl: string; tensorboardUrl: string }> {
    await this.terminals.assertOpenable(principal, instanceId);
    const value = encodeURIComponent(this.terminals.seal(principal, instanceId, COOKIE_PURPOSE, COOKIE_SECONDS).sealed);
    const cookie = `${COOKIE}=${value}; Path=/tools/${instanceId}/; Max-Age=${COOKIE_SECONDS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
    return { cookie, jupyterUrl: toolPath(instanceId, 'jupyter'), tensorboardUrl: toolPath(instanceId, 'tensorboard') };
  }

  /** Lets the request through when it carries this instance's cookie of a live session and the machine runs (403 otherwise). */
  async authorize(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const instanceId = (request.params as { instanceId?: string }).instanceId ?? '';
    for (const sealed of cookiesNamed(request.headers.cookie, COOKIE)) {
      const claims = await this.terminals.unseal(sealed, COOKIE_PURPOSE);
      if (!claims || claims.i !== instanceId) continue;
      try {
        this.targets.set(request, await this.terminals.targetOf(instanceId, claims.s));
        return;
      } catch (error) {
        if (error instanceof AppError) return void page(reply, error.status, error.message);
        throw error;
      }
    }
    await page(reply, 403, TOOLS_TEXTS.forbidden);
  }

  /** An SSH channel to the tool, dressed as a socket: HTTP and WebSocket clients set socket options on what they are given. */
  private async channel(request: FastifyRequest, tool: InstanceTool): Promise<Duplex> {
    const target = this.targets.get(request);
    if (!target) throw new AppError('FORBIDDEN', TOOLS_TEXTS.forbidden);
    const channel = await this.tunnels.forward(target, MACHINE_TOOL_PORTS[tool]);
    return Object.assign(channel, { setNoDelay: () => channel, setTimeout: () => channel, setKeepAlive: () => channel, ref: () => channel, unref: () => channel });
  }

  async proxyHttp(request: FastifyRequest, reply: FastifyReply, tool: InstanceTool): Promise<void> {
    const notReady = TOOLS_TEXTS.notReady[tool]((request.params as { instanceId: string }).instanceId);
    let channel: Duplex;
    try {
      channel = await this.channel(request, tool);
    } catch (error) {
      if (error instanceof AppError) return void page(reply, error.status === 403 ? 403 : 502, error.status === 403 ? error.message : notReady);
      throw error;
    }
    reply.hijack();
    const upstream = httpRequest({ createConnection: () => channel, method: request.method, path: request.raw.url, headers: forwardedHeaders(request.headers) });
    upstream.on('response', (answer) => {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
      reply.raw.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(reply.raw);
    });
    upstream.on('error', () => {
      if (!reply.raw.headersSent) reply.raw.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      reply.raw.end(notReady.replace(/<\/?code>/g, ''));
    });
    reply.raw.on('close', () => upstream.destroy());
    const body = request.body as Readable | undefined;
    if (body && typeof body.pipe === 'function') body.pipe(upstream);
    else upstream.end();
  }

  /** A WebSocket of the tool (Jupyter's kernels): a second WebSocket to it over the SSH channel, messages relayed both ways. */
  proxyWebSocket(socket: WebSocket, request: FastifyRequest, tool: InstanceTool): void {
    const pending: { data: Buffer; binary: boolean }[] = [];
    let upstream: WebSocket | undefined;
    socket.on('message', (data: Buffer, binary: boolean) => {
      if (upstream?.readyState === WebSocket.OPEN) upstream.send(data, { binary });
      else pending.push({ data, binary });
    });
    socket.on('close', () => upstream?.close());
    void this.channel(request, tool)
      .then((channel) => {
        const headers = forwardedHeaders(request.headers);
        delete headers['sec-websocket-key'];
        delete headers['sec-websocket-version'];
        delete headers['sec-websocket-extensions'];
        upstream = new WebSocket(`ws://127.0.0.1:${MACHINE_TOOL_PORTS[tool]}${request.raw.url}`, {
          createConnection: () => channel as never,
          headers: headers as Record<string, string>,
          protocol: request.headers['sec-websocket-protocol'],
        } as ConstructorParameters<typeof WebSocket>[2]);
        upstream.on('open', () => {
          for (const message of pending.splice(0)) upstream?.send(message.data, { binary: message.binary });
        });
        upstream.on('message', (data: Buffer, binary: boolean) => socket.readyState === WebSocket.OPEN && socket.send(data, { binary }));
        upstream.on('close', (code) => socket.close(code >= 1000 && code < 5000 && code !== 1005 && code !== 1006 ? code : 1011));
        upstream.on('error', (error) => {
          request.log.warn({ err: error }, 'tool WebSocket failed');
          socket.close(1011);
        });
      })
      .catch(() => socket.close(1011));
  }
}

/** The gateway's own routes, outside `/api/v1`: bodies pass through unread. */
export function toolsGatewayRoutes(gateway: ToolsGateway) {
  return async (app: FastifyInstance): Promise<void> => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const preValidation = (request: FastifyRequest, reply: FastifyReply) => gateway.authorize(request, reply);
    const config = { public: true, rateLimit: false as const };
    for (const tool of Object.keys(MACHINE_TOOL_PORTS) as InstanceTool[]) {
      app.get(`/tools/:instanceId/${tool}`, { config, schema: { hide: true } }, (request, reply) => reply.redirect(`${request.url.split('?')[0]}/`));
      app.route({
        method: 'GET',
        url: `/tools/:instanceId/${tool}/*`,
        config,
        schema: { hide: true },
        preValidation,
        handler: (request, reply) => gateway.proxyHttp(request, reply, tool),
        wsHandler: (socket, request) => gateway.proxyWebSocket(socket, request, tool),
      });
      app.route({
        method: ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        url: `/tools/:instanceId/${tool}/*`,
        config,
        schema: { hide: true },
        preValidation,
        handler: (request, reply) => gateway.proxyHttp(request, reply, tool),
      });
    }
  };
}

/** `POST /rental/tools/session`: the cookie that opens an instance's tools in this browser. */
export function toolsSessionRoutes(deps: AppDeps, gateway: ToolsGateway): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/rental/tools/session',
      {
        preValidation: requireAuthority('CONTAINER'),
        schema: {
          tags: ['容器实例'],
          summary: '打开实例的快捷工具（Jupyter、TensorBoard）：设置只对该实例的工具路径有效的 Cookie，返回工具地址',
          body: z.object({ instanceId: instanceIdField }),
          response: { 200: envelopeOf(z.object({ jupyterUrl: z.string(), tensorboardUrl: z.string() })), ...errors },
        },
      },
      async (request, reply) => {
        const secure = request.protocol === 'https' || deps.config.publicUrl.startsWith('https:');
        const { cookie, ...addresses } = await gateway.openSession(principalOf(request), request.body.instanceId, secure);
        reply.header('set-cookie', cookie).header('cache-control', 'no-store');
        return ok(addresses);
      },
    );
  };
}
