import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import { registerSecurityHeaders } from './http/security-headers.js';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { ErrorCodes, MAX_BODY_BYTES } from '@slg/shared';
import type { AppDeps } from './deps.js';
import { fastifyTrustProxy } from './config.js';
import { humanCheckContentSources } from './providers/captcha/index.js';
import { failure, ok } from './http/envelope.js';
import { answerFrameworkError, registerErrorHandling } from './http/error-handler.js';
import { registerInputGuard } from './http/input-guard.js';
import { registerAuthentication } from './http/auth.js';
import { registerWebConsole } from './http/web.js';
import { registerApiDocs } from './http/openapi.js';
import { AuthService } from './modules/auth/service.js';
import { authRoutes } from './modules/auth/routes.js';
import { smsRoutes } from './modules/sms/routes.js';
import { userRoutes } from './modules/users/routes.js';
import { metaRoutes, pageListsOf } from './modules/meta/routes.js';
import { devRoutes } from './modules/dev/routes.js';
import { billingRoutes } from './modules/billing/routes.js';
import { voucherRoutes } from './modules/vouchers/routes.js';
import { invoiceRoutes } from './modules/invoices/routes.js';
import { adminRoutes } from './modules/admin/routes.js';
import { rentalRoutes } from './modules/rental/routes.js';
import { elasticRoutes } from './modules/elastic/routes.js';
import { storageRoutes } from './modules/storage/routes.js';
import { datasetRoutes } from './modules/datasets/routes.js';
import { modelAdminRoutes, modelCatalogueRoutes, modelServices, openAiRoutes } from './modules/models/routes.js';
import { diskRoutes } from './modules/rental/disk-routes.js';
import { copyRoutes } from './modules/rental/copy-routes.js';
import { chargingRecordRoutes } from './modules/rental/charging-records.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { subAccountRoutes } from './modules/subaccounts/routes.js';
import { marketRoutes } from './modules/market/routes.js';
import { subscriptionRoutes } from './modules/subscriptions/routes.js';
import { monitoringRoutes } from './modules/monitoring/routes.js';
import { sshKeyRoutes } from './modules/ssh-keys/routes.js';
import { apiTokenRoutes } from './modules/tokens/routes.js';
import { ApiTokenAuthenticator } from './modules/tokens/authentication.js';
import { imageRoutes } from './modules/images/routes.js';
import { reminderRoutes } from './modules/reminders/routes.js';
import { sandboxGatewayRoutes } from './modules/billing/sandbox-gateway.js';
import { wechatRoutes } from './modules/wechat/routes.js';
import { devOAuthRoutes } from './providers/oauth/dev-routes.js';
import { DEV_OAUTH_PREFIX } from './providers/oauth/dev.js';
import { uploadRoutes } from './modules/uploads/routes.js';
import { verificationRoutes } from './modules/verification/routes.js';
import { verificationAdminRoutes } from './modules/verification/admin-routes.js';
import { metricsAllowed } from './core/telemetry.js';
import { SimFleetExporter } from './modules/monitoring/sim-fleet-exporter.js';
import websocket from '@fastify/websocket';
import { terminalRoutes } from './modules/rental/terminal-routes.js';
import { ToolsGateway, toolsGatewayRoutes, toolsSessionRoutes } from './modules/rental/tools-gateway.js';

// `state` and `openId` (a WeChat bind ticket), `secret` and `access_token` (the dev WeChat stand-in) too.
const SECRET_QUERY_KEYS = new Set(['code', 'password', 'token', 'refreshToken', 'captcha', 'state', 'openId', 'secret', 'access_token']);

/** Request URL for logs with secret query values masked (SMS codes travel in the query). */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const params = new URLSearchParams(url.slice(question + 1));
  for (const key of params.keys()) if (SECRET_QUERY_KEYS.has(key)) params.set(key, '***');
  return `${url.slice(0, question)}?${params.toString()}`;
}

export interface BuildAppOptions {
  /** Serve the built console from the web dist directory (off in API tests). */
  serveWeb?: boolean;
  logger?: boolean;
}

export async function buildApp(deps: AppDeps, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    bodyLimit: MAX_BODY_BYTES,
    frameworkErrors: answerFrameworkError,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.refreshToken', '*.jwtToken'],
            serializers: {
              req: (request: { method: string; url: string; id: string; ip?: string }) => ({
                id: request.id,
                method: request.method,
                url: redactUrl(request.url),
                ip: request.ip,
              }),
            },
            ...(config.env === 'development' ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } } } : {}),
          },
    trustProxy: fastifyTrustProxy(config.trustProxy),
  }).withTypeProvider<ZodTypeProvider>();

  registerInputGuard(app);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  registerErrorHandling(app);

  const webConsole = options.serveWeb ? await registerWebConsole(app, config, pageListsOf(deps)) : null;

  // A vendor captcha (HUMAN_CHECK_PROVIDER=aliyun|tencent) loads its script and frames from its own hosts.
  const humanCheckSources = humanCheckContentSources(config.humanCheck.provider);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        scriptSrc: ["'self'", ...(webConsole?.inlineScriptHashes ?? []), ...humanCheckSources.scriptSrc],
        imgSrc: ["'self'", 'data:', 'blob:', ...humanCheckSources.imgSrc],
        connectSrc: ["'self'", ...humanCheckSources.connectSrc],
        frameSrc: ["'self'", ...humanCheckSources.frameSrc],
        styleSrc: ["'self'", "'unsafe-inline'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, {
    max: config.rateLimitPerMinute,
    timeWindow: '1 minute',
    // The limit is told when it is reached (429 with Retry-After and the x-ratelimit-* headers), not
    // on every answer: three headers per response were measurable CPU on the hot reads.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    errorResponseBuilder: () => ({ statusCode: 429, ...failure(ErrorCodes.RATE_LIMITED.code, ErrorCodes.RATE_LIMITED.message) }),
  });

  // API JSON above 1 KB goes out compressed; brotli at a low level costs little CPU. The console's assets
  // and its page are compressed ahead (the build and http/web.ts) and carry their Content-Encoding.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });

  // WebSockets (终端): the largest frame a terminal sends is a paste.
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });

  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 10 } });

  await registerApiDocs(app, config);

  const auth = new AuthService(deps);
  const toolsGateway = new ToolsGateway(deps);
  app.addHook('onClose', async () => toolsGateway.tunnels.close());
  registerAuthentication(app, auth.sessions, new ApiTokenAuthenticator(deps));

  // Request latency by route template; requests no route matched share one label, so scanners cannot grow the series.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.telemetry.httpRequestDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });
  const refuseMetrics = (reply: FastifyReply) =>
    reply.status(403).send(failure(ErrorCodes.FORBIDDEN.code, config.metricsToken ? '监控指标需要正确的 METRICS_TOKEN' : '监控指标只对本机开放，远程抓取请设置 METRICS_TOKEN'));
  app.get('/metrics', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async (request, reply) => {
    if (!metricsAllowed(request.headers.authorization, request.ip, config.metricsToken)) return refuseMetrics(reply);
    return reply.type(deps.telemetry.registry.contentType).send(await deps.telemetry.render());
  });
  if (deps.compute.driver.name === 'sim') {
    // The simulated machines under a Docker host exporter's series names (docs/compute.md "Metrics").
    const simFleet = new SimFleetExporter(deps.database.db, deps.now);
    app.get('/metrics/sim-fleet', { config: { public: true, rateLimit: false }, schema: { hide: true } }, async (request, reply) => {
      if (!metricsAllowed(request.headers.authorization, request.ip, config.metricsToken)) return refuseMetrics(reply);
      return reply.type(simFleet.series.registry.contentType).send(await simFleet.render());
    });
  }
  app.get('/healthz', { config: { public: true }, schema: { hide: true } }, async () => ok({ status: 'ok' }));
  app.get('/readyz', { config: { public: true }, schema: { hide: true } }, async (_request, reply) => {
    try {
      await deps.database.ping();
      return ok({ status: 'ready', database: deps.database.kind });
    } catch (error) {
      app.log.error({ err: error }, 'database not reachable');
      return reply.status(503).send(failure(ErrorCodes.SERVICE_UNAVAILABLE.code, '数据库不可用'));
    }
  });

  const modelService = modelServices(deps);
  await app.register(
    async (api) => {
      await api.register(authRoutes(auth));
      await api.register(modelCatalogueRoutes(modelService));
      await api.register(modelAdminRoutes(modelService));
      await api.register(wechatRoutes(deps, auth));
      await api.register(smsRoutes(deps));
      await api.register(userRoutes(deps, auth));
      await api.register(metaRoutes(deps));
      await api.register(billingRoutes(deps));
      await api.register(voucherRoutes(deps));
      await api.register(invoiceRoutes(deps));
      await api.register(adminRoutes(deps));
      await api.register(rentalRoutes(deps));
      await api.register(elasticRoutes(deps));
      await api.register(storageRoutes(deps));
      await api.register(datasetRoutes(deps));
      await api.register(terminalRoutes(deps));
      await api.register(toolsSessionRoutes(deps, toolsGateway));
      await api.register(diskRoutes(deps));
      await api.register(copyRoutes(deps));
      await api.register(chargingRecordRoutes(deps));
      await api.register(notificationRoutes(deps));
      await api.register(subAccountRoutes(deps));
      await api.register(marketRoutes(deps));
      await api.register(subscriptionRoutes(deps));
      await api.register(monitoringRoutes(deps));
      await api.register(sshKeyRoutes(deps));
      await api.register(apiTokenRoutes(deps));
      await api.register(imageRoutes(deps));
      await api.register(uploadRoutes(deps));
      await api.register(verificationRoutes(deps));
      await api.register(verificationAdminRoutes(deps));
      await api.register(reminderRoutes(deps));
    },
    { prefix: '/api/v1' },
  );
  await app.register(openAiRoutes(deps, modelService), { prefix: '/v1' });
  await app.register(toolsGatewayRoutes(toolsGateway));
  if (config.smsProvider === 'console') await app.register(devRoutes(deps), { prefix: '/api/dev' });
  if (deps.payments.has('sandbox')) await app.register(sandboxGatewayRoutes(deps), { prefix: '/sandbox-pay' });
  if (config.wechatLogin?.provider === 'dev') await app.register(devOAuthRoutes(deps), { prefix: DEV_OAUTH_PREFIX });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // Client-side routes get the console; a missing file (an old chunk after a release) gets a real 404.
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') && !/^\/(api|v1|sandbox-pay|assets|tools)(\/|$)/.test(path) && !/\.[a-z0-9]+$/i.test(path);
    if (webConsole && wantsPage) return webConsole.sendPage(request, reply);
    return reply.status(404).send(failure(ErrorCodes.NOT_FOUND.code, ErrorCodes.NOT_FOUND.message));
  });

  return app;
}
