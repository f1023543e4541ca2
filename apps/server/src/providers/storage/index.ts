import { join } from 'node:path';
import type { Config } from '../../config.js';
import { LocalPrivateStorage } from './local.js';
import type { PrivateStorage } from './private.js';

export type { PrivateStorage } from './private.js';
export { newStorageKey } from './private.js';

/** The private file store of this configuration: today the local disk under `${DATA_DIR}/private/`. */
export function createPrivateStorage(config: Pick<Config, 'dataDir'>): PrivateStorage {
  return new LocalPrivateStorage(join(config.dataDir, 'private'));
}
