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

/**
 * The public lists the page carries as JSON (`<script type="application/json" id="slg-meta">`), as
 * the API answers them, so the landing page renders once without requesting them. Called for every
 * page; it should answer from memory (the server's dictionary cache).
 */
export type PageLists = () => Promise<string>;

export interface WebConsole {
  /** index.html with the runtime config and the app title injected (without the lists). */
  html: string;
  /** CSP sources (`'sha256-…'`) of the page's inline scripts: the runtime config and the colour-mode boot. */
  inlineScriptHashes: string[];
  /** Sends the console page in the encoding the browser accepts (br, gzip or none), revalidated on every visit. */
  sendPage(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

/** Serves the built console; every non-API GET that is not a file gets index.html (client-side routes). */
export async function registerWebConsole(app: FastifyInstance, config: Config, pageLists?: PageLists): Promise<WebConsole | null> {
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
  // The page is the same for every route: compressed here, at the build's levels, once per version of
  // the lists it carries (they change when an operator edits a zone, a GPU model or an image).
  const compose = (lists: string | null) => {
    const page = lists === null ? html : html.replace('<!--slg-meta-->', `<script type="application/json" id="slg-meta">${lists.replace(/</g, '\\u003c')}</script>`);
    const bytes = Buffer.from(page, 'utf8');
    return {
      lists,
      page,
      compressed: {
        br: brotliCompressSync(bytes, {
          params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        }),
        gzip: gzipSync(bytes, { level: zlibConstants.Z_BEST_COMPRESSION }),
      } satisfies Record<PageEncoding, Buffer>,
    };
  };
  let current = compose(pageLists ? await pageLists() : null);

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

  const sendPage = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    if (pageLists) {
      const lists = await pageLists();
      if (lists !== current.lists) current = compose(lists);
    }
    const { page, compressed } = current;
    const accepted = request.headers['accept-encoding'];
    const encoding = typeof accepted === 'string' ? negotiate(accepted, [...PAGE_ENCODINGS]) : null;
    // The page names the current hashed assets: browsers revalidate it so a release is seen at once.
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (!encoding) return reply.send(page);
    return reply.header('content-encoding', encoding).send(compressed[encoding]);
  };
  app.get('/index.html', { config: { public: true }, schema: { hide: true } }, (request, reply) => sendPage(request, reply));

  return { html, inlineScriptHashes, sendPage };
}
