/** Where datasets live under STORAGE_ROOT (dot folders: no main account's store is named so). */
export const PUBLIC_DATASETS_DIR = '.public';
export const SHARED_SNAPSHOTS_DIR = '.datasets';
