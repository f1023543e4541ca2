import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.js';

/** Encodings of the console page, in the server's order of preference. */
const PAGE_ENCODINGS = ['br', 'gzip'] as const;
type PageEncoding = (typeof PAGE_ENCODINGS)[number];

export interface WebConsole {
  /** index.html with the runtime config and the app title injected. */
  html: string;
  /** CSP sources (`'sha256-…'`) of the page's inline scripts: the runtime config and the colour-mode boot. */
  inlineScriptHashes: string[];
  /** Sends the console page in the encoding the browser accepts (br, gzip or none), revalidated on every visit. */
  sendPage(request: FastifyRequest, reply: FastifyReply): FastifyReply;
}

/** Serves the built console; every non-API GET that is not a file gets index.html (client-side routes). */
export async function registerWebConsole(app: FastifyInstance, config: Config): Promise<WebConsole | null> {
  const indexFile = join(config.webDistDir, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn({ dir: config.webDistDir }, 'console build not found; run `npm run build` (npm start does it)');
    return null;
  }
  const browserConfig = JSON.stringify({ appTitle: config.appTitle, publicUrl: config.publicUrl }).replace(/</g, '\\u003c');
  const escapedTitle = config.appTitle.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = readFileSync(indexFile, 'utf8')
    .replace('<!--slg-config-->', `<script>window.__SLG_CONFIG__=${browserConfig}</script>`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapedTitle}</title>`);
  const inlineScriptHashes = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`,
  );
  // The page is the same for every route: compressed once here, at the build's levels.
  const htmlBytes = Buffer.from(html, 'utf8');
  const compressedPage: Record<PageEncoding, Buffer> = {
    br: brotliCompressSync(htmlBytes, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: htmlBytes.length },
    }),
    gzip: gzipSync(htmlBytes, { level: zlibConstants.Z_BEST_COMPRESSION }),
  };

  await app.register(fastifyStatic, {
    root: config.webDistDir,
    wildcard: false,
    index: false,
    // The raw template (without the runtime config) is never served; /index.html gets the page below.
    globIgnore: ['index.html', 'index.html.*'],
    maxAge: '1h',
    // The build writes `.br` and `.gz` beside every text asset; the variant the browser accepts is sent
    // as is, with its Content-Encoding, so nothing is compressed per request.
    preCompressed: true,
    setHeaders: (reply, path) => {
      // Hashed file names never change content: cache them for a year.
      if (path.includes('/assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });

  const sendPage = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const accepted = request.headers['accept-encoding'];
    const encoding = typeof accepted === 'string' ? negotiate(accepted, [...PAGE_ENCODINGS]) : null;
    // The page names the current hashed assets: browsers revalidate it so a release is seen at once.
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (!encoding) return reply.send(html);
    return reply.header('content-encoding', encoding).send(compressedPage[encoding]);
  };
  app.get('/index.html', { config: { public: true }, schema: { hide: true } }, (request, reply) => sendPage(request, reply));

  return { html, inlineScriptHashes, sendPage };
}
