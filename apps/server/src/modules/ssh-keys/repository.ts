import { asc, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { sshKeys } from '../../db/schema/index.js';

/**
 * The authorized_keys lines of each creator, oldest key first, in one query for any number of
 * creators (the reconciler builds the machines of a whole pass with it). Creators without keys get
 * an empty list.
 */
export async function authorizedKeysByCreator(db: Executor, creatorIds: readonly number[]): Promise<Map<number, string[]>> {
  const byCreator = new Map<number, string[]>(creatorIds.map((id) => [id, []]));
  if (byCreator.size === 0) return byCreator;
  const rows = await db
    .select({ creatorId: sshKeys.creatorId, line: sshKeys.publicKey })
    .from(sshKeys)
    .where(inArray(sshKeys.creatorId, [...byCreator.keys()]))
    .orderBy(asc(sshKeys.createdAt), asc(sshKeys.id));
  for (const row of rows) byCreator.get(row.creatorId)?.push(row.line);
  return byCreator;
}
