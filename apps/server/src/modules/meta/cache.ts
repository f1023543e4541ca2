import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Bodies below this size go out uncompressed (the same threshold as @fastify/compress in app.ts). */
const COMPRESS_THRESHOLD_BYTES = 1024;

/** One JSON answer, serialised and compressed once, with the validator browsers send back. */
export interface Representation {
  /** Weak: the same content is sent in three encodings under one tag. */
  etag: string;
  identity: Buffer;
  br: Buffer | null;
  gzip: Buffer | null;
}

export function representationOf(body: unknown): Representation {
  const identity = Buffer.from(JSON.stringify(body), 'utf8');
  const compress = identity.length >= COMPRESS_THRESHOLD_BYTES;
  return {
    etag: `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    identity,
    br: compress ? brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }) : null,
    gzip: compress ? gzipSync(identity, { level: 9 }) : null,
  };
}

/** RFC 9110 weak comparison against a list of entity tags (or `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const candidate of ifNoneMatch.split(',')) {
    const tag = candidate.trim();
    if (tag === '*' || tag === opaque || tag === `W/${opaque}`) return true;
  }
  return false;
}

const encodings = new Negotiator({ supportedValues: ['br', 'gzip'] });

/**
 * Answers 304 when the client holds the current version, else the body in the best encoding the
 * client accepts. `no-cache`: browsers keep the copy but ask every time, so an edit is seen at once.
 */
export function sendRepresentation(request: FastifyRequest, reply: FastifyReply, representation: Representation): FastifyReply {
  reply.header('etag', representation.etag).header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  if (etagMatches(request.headers['if-none-match'], representation.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  const accepted = request.headers['accept-encoding'];
  const encoding = accepted && representation.br ? encodings.negotiate(accepted) : null;
  if (encoding === 'br' && representation.br) return reply.header('content-encoding', 'br').send(representation.br);
  if (encoding === 'gzip' && representation.gzip) return reply.header('content-encoding', 'gzip').send(representation.gzip);
  return reply.send(representation.identity);
}

/**
 * Database dictionaries held in memory. A snapshot serves every request until it is `maxAgeMs` old;
 * the first request after that reloads (once, shared by concurrent requests) before it answers. So an
 * operator's edit reaches every replica within `maxAgeMs`, whichever way the row was changed, with no
 * coordination between processes, while all other requests (and every 304) cost no query.
 */
export class DictionaryCache<Name extends string> {
  private snapshot: { loadedAtMs: number; items: Record<Name, Representation> } | null = null;
  private loading: Promise<Record<Name, Representation>> | null = null;

  constructor(
    private readonly load: () => Promise<Record<Name, unknown>>,
    private readonly now: () => Date,
    private readonly maxAgeMs: number,
  ) {}

  async get(name: Name): Promise<Representation> {
    const snapshot = this.snapshot;
    const ageMs = snapshot ? this.now().getTime() - snapshot.loadedAtMs : -1;
    // A negative age means the wall clock was set back: reload rather than trust the copy until then.
    if (snapshot && ageMs >= 0 && ageMs < this.maxAgeMs) return snapshot.items[name];
    return (await this.reload())[name];
  }

  private reload(): Promise<Record<Name, Representation>> {
    this.loading ??= (async () => {
      // The age counts from before the query: the data can be no older than that.
      const startedAtMs = this.now().getTime();
      const bodies = await this.load();
      const previous = this.snapshot?.items;
      const items = {} as Record<Name, Representation>;
      for (const name of Object.keys(bodies) as Name[]) {
        const fresh = Buffer.from(JSON.stringify(bodies[name]), 'utf8');
        const kept = previous?.[name];
        // Unchanged content keeps its representation: no recompression, same ETag.
        items[name] = kept && kept.identity.equals(fresh) ? kept : representationOf(bodies[name]);
      }
      this.snapshot = { loadedAtMs: startedAtMs, items };
      return items;
    })().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }
}
