import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { MAX_SSH_KEYS, type Page, type SshKeyType } from '@slg/shared';
import type { SshKeyView } from '@slg/shared/views/ssh-keys';
import type { AppDeps } from '../../deps.js';
import { sshKeys, users } from '../../db/schema/index.js';
import { ownedBy, ownershipFor } from '../../db/scope.js';
import { isUniqueViolation, violatedConstraint } from '../../db/errors.js';
import { AppError } from '../../core/errors.js';
import { paged, type PageQuery } from '../../http/pagination.js';
import type { Principal } from '../../core/principal.js';
import { parseOpenSshPublicKey } from './openssh.js';

export interface NewSshKey {
  /** The pasted public key (a .pub file's line). */
  key: string;
  keyName: string;
}

/** The answer's shape: the schema in packages/shared (views/ssh-keys), which the console reads too. */
export type { SshKeyView };

type SshKeyRow = typeof sshKeys.$inferSelect;

const NAME_INDEX = 'ssh_keys_creator_name_key';
const FINGERPRINT_INDEX = 'ssh_keys_creator_fingerprint_key';

function viewOf(row: SshKeyRow): SshKeyView {
  // Stored keys passed the same parser; reading the line again gives its size without a column for it.
  const parsed = parseOpenSshPublicKey(row.publicKey);
  const bits = parsed.ok ? parsed.key.bits : 0;
  const comment = parsed.ok ? parsed.key.comment : '';
  return { keyName: row.name, keyType: row.keyType as SshKeyType, bits, fingerprint: row.fingerprint, comment, createdAt: row.createdAt.toISOString() };
}

/**
 * SSH public keys (SSH公钥) a user keeps so that the instances they create get them in root's
 * authorized_keys. Keys are personal: a sub-account has its own, and a main account does not see its
 * sub-accounts' keys (a key grants access to the machines of whoever created them). Managing them
 * needs the CONTAINER authority, as instances do.
 */
export class SshKeyService {
  constructor(private readonly deps: Pick<AppDeps, 'database' | 'now'>) {}

  private get db() {
    return this.deps.database.db;
  }

  /** Scoped by the authority (403 for NONE), then to the caller's own keys whatever the level. */
  private mine(principal: Principal): SQL {
    return and(ownedBy(principal, 'CONTAINER', sshKeys), eq(sshKeys.creatorId, principal.userId)) as SQL;
  }

  async list(principal: Principal, query: PageQuery): Promise<Page<SshKeyView>> {
    const where = this.mine(principal);
    return paged(
      query,
      (limit, offset) => this.db.select().from(sshKeys).where(where).orderBy(desc(sshKeys.createdAt), desc(sshKeys.id)).limit(limit).offset(offset),
      () => this.db.$count(sshKeys, where),
      (rows) => rows.map(viewOf),
    );
  }

  /**
   * Adds a key after reading it as OpenSSH does. Duplicates are decided by the unique indexes on
   * (creator, name) and (creator, fingerprint), never by a look-up first. The limit of MAX_SSH_KEYS
   * is counted under a lock on the user's row, so concurrent adds of one user are decided one after
   * the other: a single INSERT … SELECT … WHERE count < limit would not do, because under READ
   * COMMITTED concurrent statements each count from their own snapshot and all insert.
   */
  async add(principal: Principal, input: NewSshKey): Promise<SshKeyView> {
    const owner = ownershipFor(principal, 'CONTAINER');
    const parsed = parseOpenSshPublicKey(input.key);
    if (!parsed.ok) throw new AppError('VALIDATION', parsed.message);
    const key = parsed.key;
    try {
      const row = await this.db.transaction(async (tx) => {
        // NO KEY UPDATE: waits for other adds of this user, not for rows that merely reference the user.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, owner.creatorId)).for('no key update');
        const [kept] = await tx.select({ count: count() }).from(sshKeys).where(eq(sshKeys.creatorId, owner.creatorId));
        if ((kept?.count ?? 0) >= MAX_SSH_KEYS) {
          throw new AppError('STATE_CONFLICT', `最多保存${MAX_SSH_KEYS}个SSH公钥，请先删除不再使用的公钥`);
        }
        const [created] = await tx
          .insert(sshKeys)
          .values({ ...owner, name: input.keyName, publicKey: key.line, fingerprint: key.fingerprint, keyType: key.type, createdAt: this.deps.now() })
          .returning();
        return created as SshKeyRow;
      });
      return viewOf(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (violatedConstraint(error) === FINGERPRINT_INDEX) throw await this.keyExists(owner.creatorId, key.fingerprint);
      if (violatedConstraint(error) === NAME_INDEX) throw new AppError('NAME_EXISTS');
      throw error;
    }
  }

  /** The refusal of a key the user already has, naming it (read after the index refused the insert). */
  private async keyExists(creatorId: number, fingerprint: string): Promise<AppError> {
    const [existing] = await this.db
      .select({ name: sshKeys.name })
      .from(sshKeys)
      .where(and(eq(sshKeys.creatorId, creatorId), eq(sshKeys.fingerprint, fingerprint)));
    return new AppError('SSH_KEY_EXISTS', existing ? `该公钥已添加，名称为“${existing.name}”，无需重复添加` : undefined);
  }

  /** Deletes one of the caller's keys by name (404 otherwise). Instances already created keep it. */
  async remove(principal: Principal, keyName: string): Promise<void> {
    const removed = await this.db
      .delete(sshKeys)
      .where(and(this.mine(principal), eq(sshKeys.name, keyName)))
      .returning({ id: sshKeys.id });
    if (removed.length === 0) throw new AppError('NOT_FOUND', `没有名为“${keyName}”的SSH公钥，可能已被删除`);
  }
}
