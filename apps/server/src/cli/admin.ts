import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import { TELEPHONE_PATTERN, type Role } from '@slg/shared';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { users } from '../db/schema/index.js';

/**
 * Operator administration from the shell:
 *   npm run admin -- grant-operator <telephone>
 *   npm run admin -- revoke-operator <telephone>
 */
export const USAGE = ['用法：', '  npm run admin -- grant-operator <手机号>    授予运营人员权限', '  npm run admin -- revoke-operator <手机号>   撤销运营人员权限'].join('\n');

/** A mistake of the person at the keyboard: printed as is, exit code 1. */
export class AdminCommandError extends Error {}

type Command = 'grant-operator' | 'revoke-operator';

export function parseAdminArgs(args: readonly string[]): { command: Command; telephone: string } {
  const [command, telephone, ...extra] = args;
  if (command === undefined) throw new AdminCommandError(`缺少命令。\n${USAGE}`);
  if (command !== 'grant-operator' && command !== 'revoke-operator') throw new AdminCommandError(`未知命令：${command}\n${USAGE}`);
  if (telephone === undefined) throw new AdminCommandError(`缺少手机号。\n${USAGE}`);
  if (!TELEPHONE_PATTERN.test(telephone)) throw new AdminCommandError(`手机号格式不正确：${telephone}（需为11位中国大陆手机号）`);
  if (extra.length > 0) throw new AdminCommandError(`多余的参数：${extra.join(' ')}\n${USAGE}`);
  return { command, telephone };
}

/** Runs one command against the database and returns the message to print. */
export async function runAdminCommand(db: Database, args: readonly string[]): Promise<string> {
  const { command, telephone } = parseAdminArgs(args);
  const operator: Role = 'operator';
  const [user] = await db.select({ id: users.id, roles: users.roles }).from(users).where(eq(users.telephone, telephone));
  if (!user) throw new AdminCommandError(`手机号 ${telephone} 尚未注册，请先在控制台注册该账号`);
  const has = user.roles.includes(operator);

  if (command === 'grant-operator') {
    if (has) return `${telephone} 已经是运营人员，无需重复授予`;
    await db
      .update(users)
      .set({ roles: [...user.roles, operator], updatedAt: sql`now()` })
      .where(eq(users.id, user.id));
    return `已授予 ${telephone} 运营人员权限（operator），重新进入控制台即可使用运营功能`;
  }
  if (!has) return `${telephone} 不是运营人员，无需撤销`;
  await db
    .update(users)
    .set({ roles: user.roles.filter((role) => role !== operator), updatedAt: sql`now()` })
    .where(eq(users.id, user.id));
  return `已撤销 ${telephone} 的运营人员权限（operator）`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  parseAdminArgs(args); // refuse a wrong command before touching the database
  const config = loadConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, pgliteDir: join(config.dataDir, 'pglite') });
  try {
    await database.migrate();
    console.log(await runAdminCommand(database.db, args));
  } finally {
    await database.close();
  }
}

const invokedDirectly = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  main().catch((error: unknown) => {
    if (error instanceof AdminCommandError) console.error(error.message);
    else if (error instanceof ConfigError) console.error(`配置错误：${error.message}`);
    else console.error(error);
    process.exit(1);
  });
}
