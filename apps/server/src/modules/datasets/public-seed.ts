import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../deps.js';
import { datasets } from '../../db/schema/index.js';
import { isUniqueViolation } from '../../db/errors.js';
import { measureFolder } from './snapshot.js';
import { PUBLIC_DATASETS_DIR } from './keys.js';

/**
 * The public datasets the platform ships: small, real and generated here (no download), so every
 * installation has some at `/root/slg-pub` from the first start. Each is written once into
 * `${STORAGE_ROOT}/.public/<name>` and registered once; an operator's later edit or withdrawal of the
 * row is never undone (a row of that name, even a deleted one, means it was seeded).
 */
interface SeededDataset {
  name: string;
  description: string;
  tags: string[];
  license: string;
  files: () => Record<string, string>;
}

/** GB 2312's 6,763 Hanzi: rows 16–55 (level 1; row 55 ends at 89) and 56–87 (level 2), decoded by the runtime's GB 18030 codec. */
function gb2312Hanzi(): Record<string, string> {
  const decoder = new TextDecoder('gb18030', { fatal: true });
  const lines = ['区位码,GB2312,Unicode,汉字,级别'];
  for (let row = 16; row <= 87; row += 1) {
    const last = row === 55 ? 89 : 94;
    for (let cell = 1; cell <= last; cell += 1) {
      const bytes = Uint8Array.of(row + 0xa0, cell + 0xa0);
      const character = decoder.decode(bytes);
      const code = character.codePointAt(0) ?? 0;
      const hex = Buffer.from(bytes).toString('hex').toUpperCase();
      lines.push(`${String(row).padStart(2, '0')}${String(cell).padStart(2, '0')},${hex},U+${code.toString(16).toUpperCase()},${character},${row <= 55 ? '一级' : '二级'}`);
    }
  }
  return {
    'gb2312-hanzi.csv': `${lines.join('\n')}\n`,
    'README.md': `# GB 2312 汉字表\n\nGB 2312—1980 的 ${lines.length - 1} 个汉字（一级 3755 个按拼音排序，二级 3008 个按部首排序）。\n\n列：区位码、GB 2312 编码（十六进制）、Unicode 码位、汉字、级别。由平台按 GB 2312 的编码范围以 GB 18030 解码生成。\n`,
  };
}

/** The primes below 1,000,000 (sieve of Eratosthenes). */
function primesBelowMillion(): Record<string, string> {
  const limit = 1_000_000;
  const composite = new Uint8Array(limit);
  const primes: number[] = [];
  for (let n = 2; n < limit; n += 1) {
    if (composite[n]) continue;
    primes.push(n);
    for (let multiple = n * n; multiple < limit; multiple += n) composite[multiple] = 1;
  }
  return {
    'primes.txt': `${primes.join('\n')}\n`,
    'README.md': `# 1,000,000 以内的素数\n\n共 ${primes.length} 个，每行一个，升序。由平台用埃拉托斯特尼筛法生成。\n`,
  };
}

/**
 * The ISO 3166-1 alpha-2 regions the runtime's CLDR data names, with Chinese and English names. A code
 * CLDR replaces (deprecated ones such as BU → MM) or that is user-assigned or a grouping is left out.
 */
function iso3166Regions(): Record<string, string> {
  const chinese = new Intl.DisplayNames(['zh-CN'], { type: 'region', fallback: 'none' });
  const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  // User-assigned, groupings and ISO's exceptionally reserved codes (CLDR names them too).
  const notCountries = new Set(['AA', 'AC', 'CP', 'CQ', 'DG', 'EA', 'EU', 'EZ', 'IC', 'TA', 'UN', 'ZZ']);
  const lines = ['code,name_zh,name_en'];
  for (let first = 65; first <= 90; first += 1) {
    for (let second = 65; second <= 90; second += 1) {
      const code = String.fromCharCode(first, second);
      if (notCountries.has(code) || (code >= 'QM' && code <= 'QZ') || code.startsWith('X')) continue;
      const nameEn = english.of(code);
      const nameZh = chinese.of(code);
      if (!nameEn || !nameZh || new Intl.Locale(`und-${code}`).region !== code) continue;
      lines.push([code, nameZh, nameEn].map((value) => (/[",]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value)).join(','));
    }
  }
  return {
    'regions.csv': `${lines.join('\n')}\n`,
    'README.md': `# 国家和地区代码（ISO 3166-1 alpha-2）\n\n共 ${lines.length - 1} 个代码及其中文、英文名称，取自运行时的 Unicode CLDR 数据。\n`,
  };
}

export const SEEDED_PUBLIC_DATASETS: readonly SeededDataset[] = [
  { name: 'gb2312-hanzi', description: 'GB 2312 的 6763 个常用汉字及其区位码、GB 2312 编码与 Unicode 码位（CSV），可用于中文分词、OCR 字表与字体子集。', tags: ['中文', 'NLP', 'CSV'], license: 'CC0-1.0', files: gb2312Hanzi },
  { name: 'primes-1e6', description: '1,000,000 以内的全部 78498 个素数，每行一个，适合算法练习与数值实验。', tags: ['数学', '文本'], license: 'CC0-1.0', files: primesBelowMillion },
  { name: 'iso3166-regions', description: 'ISO 3166-1 两位国家和地区代码及中英文名称（CSV，取自 Unicode CLDR）。', tags: ['地理', 'CSV'], license: 'Unicode-3.0', files: iso3166Regions },
];

/** Writes the seeded datasets' folders that are missing and registers the ones never registered. */
export async function ensurePublicDatasets(deps: Pick<AppDeps, 'database' | 'config' | 'now'>): Promise<void> {
  const root = join(deps.config.storageRoot, PUBLIC_DATASETS_DIR);
  await mkdir(root, { recursive: true });
  for (const seeded of SEEDED_PUBLIC_DATASETS) {
    const folder = join(root, seeded.name);
    if (!existsSync(folder)) {
      // Written aside and renamed: a crash never leaves half a dataset under its name.
      const partial = join(root, `.partial-${randomUUID()}`);
      await mkdir(partial);
      for (const [file, content] of Object.entries(seeded.files())) await writeFile(join(partial, file), content);
      await rename(partial, folder).catch(async (error: unknown) => {
        await rm(partial, { recursive: true, force: true });
        if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      });
    }
    const [known] = await deps.database.db
      .select({ id: datasets.id })
      .from(datasets)
      .where(and(eq(datasets.kind, 'PUBLIC'), eq(datasets.name, seeded.name)))
      .limit(1);
    if (known) continue;
    const size = await measureFolder(folder);
    const now = deps.now();
    try {
      await deps.database.db.insert(datasets).values({
        kind: 'PUBLIC',
        name: seeded.name,
        description: seeded.description,
        tags: seeded.tags,
        license: seeded.license,
        snapshot: `${PUBLIC_DATASETS_DIR}/${seeded.name}`,
        sizeBytes: size.bytes,
        fileCount: size.files,
        status: 'PASS',
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      // Another server process registered it first.
      if (!isUniqueViolation(error)) throw error;
    }
  }
}
