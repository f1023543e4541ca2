import { createHash } from 'node:crypto';
import type { Representation } from '../meta/cache.js';

/**
 * Market answers held in memory for at most `maxAgeMs`: the market is the same for every visitor, so
 * however many of them look at one view in a second, the database answers it once per process (the
 * first request after expiry loads it; concurrent requests share that load). Keys are the normalised
 * queries; at most `maxEntries` are kept, the oldest loaded dropped first. Bodies are kept serialised
 * with a weak ETag (a revalidation that finds the same content gets 304); compression is left to the
 * per-request compressor, since an answer lives only a second.
 */
export class AnswerCache {
  private readonly entries = new Map<string, { loadedAtMs: number; representation: Representation }>();
  private readonly loading = new Map<string, Promise<Representation>>();
  private generation = 0;

  constructor(
    private readonly now: () => Date,
    private readonly maxAgeMs: number,
    private readonly maxEntries: number,
  ) {}

  async get(key: string, load: () => Promise<unknown>): Promise<Representation> {
    const entry = this.entries.get(key);
    const ageMs = entry ? this.now().getTime() - entry.loadedAtMs : -1;
    // A negative age means the wall clock was set back: reload rather than trust the copy until then.
    if (entry && ageMs >= 0 && ageMs < this.maxAgeMs) return entry.representation;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loaded = (async () => {
      // The age counts from before the query: the data can be no older than that.
      const loadedAtMs = this.now().getTime();
      const identity = Buffer.from(JSON.stringify(await load()), 'utf8');
      const representation: Representation = {
        etag: `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
        identity,
        br: null,
        gzip: null,
      };
      // A load that began before a `clear` may hold what the clear was for: answer it, keep it not.
      if (generation === this.generation) {
        this.entries.delete(key);
        this.entries.set(key, { loadedAtMs, representation });
        for (const oldest of this.entries.keys()) {
          if (this.entries.size <= this.maxEntries) break;
          this.entries.delete(oldest);
        }
      }
      return representation;
    })().finally(() => {
      if (this.loading.get(key) === loaded) this.loading.delete(key);
    });
    this.loading.set(key, loaded);
    return loaded;
  }

  /** Forgets every answer (this process changed the fleet). Other processes catch up within maxAgeMs. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.loading.clear();
  }
}
