import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.js';

/** Serves the built console; every non-API GET that is not a file gets index.html (client-side routes). */
export async function registerWebConsole(app: FastifyInstance, config: Config): Promise<((url: string) => string) | null> {
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
  await app.register(fastifyStatic, {
    root: config.webDistDir,
    wildcard: false,
    index: false,
    maxAge: '1h',
    // The build writes `.br` and `.gz` beside every text asset; the variant the browser accepts is sent
    // as is, with its Content-Encoding, so nothing is compressed per request.
    preCompressed: true,
    setHeaders: (reply, path) => {
      // Hashed file names never change content: cache them for a year.
      if (path.includes('/assets/')) reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });
  return () => html;
}
