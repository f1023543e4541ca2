/** 文件存储: limits shared by the server and the console. */
export const FILE_STORAGE_MOUNT = '/root/slg-fs';
/** Free per main account and region; beyond it usage is billed per GB·day. */
export const FILE_STORAGE_FREE_GB = 20;
export const FILE_STORAGE_DEFAULT_QUOTA_GB = 200;
export const FILE_STORAGE_MAX_QUOTA_GB = 2048;
/** 1 GB of file storage, in bytes (GiB, as `du` and the usage bar count). */
export const FILE_STORAGE_GB_BYTES = 1024 ** 3;
/** A folder listing's pages (the console's file manager asks for one page at a time). */
export const LISTING_DEFAULT_PAGE_SIZE = 100;
export const LISTING_MAX_PAGE_SIZE = 1000;
/** A file or folder name: at most 255 bytes of UTF-8. */
export const FILE_NAME_MAX_BYTES = 255;
/** Days in arrears after which writes are refused, and after which the store is deleted. */
export const FILE_STORAGE_BLOCK_DAYS = 15;
export const FILE_STORAGE_DELETE_DAYS = 30;

/** 数据集: where datasets appear in instances (read-only), `/root/slg-pub/<name>`. */
export const DATASET_MOUNT_ROOT = '/root/slg-pub';
export const datasetMountPath = (name: string): string => `${DATASET_MOUNT_ROOT}/${name}`;
/** A dataset's name is its folder in instances: letters, digits, CJK, `_`, `-`, `.`; 1–64 characters, not starting with a dot. */
export const DATASET_NAME_PATTERN = /^[0-9A-Za-z_\u4e00-\u9fa5-][0-9A-Za-z_.\u4e00-\u9fa5-]{0,63}$/;
export const DATASET_NAME_MESSAGE = '数据集名称只能包含中文、字母、数字、下划线、短横线和点，不能以点开头，最多64个字符';
export const DATASET_DESCRIPTION_MAX = 500;
export const DATASET_TAGS_MAX = 8;
export const DATASET_TAG_MAX = 16;
/** Datasets an instance may name at create or clone (public datasets are mounted in every instance anyway). */
export const DATASETS_PER_INSTANCE_MAX = 10;
/** What one shared dataset may hold (its snapshot is a copy on the platform's storage). */
export const SHARED_DATASET_MAX_BYTES = 50 * FILE_STORAGE_GB_BYTES;
export const SHARED_DATASET_MAX_FILES = 100_000;
/** Licences a dataset can name (the value is stored; the console shows it as is). */
export const DATASET_LICENSES = ['CC0-1.0', 'CC-BY-4.0', 'CC-BY-SA-4.0', 'CC-BY-NC-4.0', 'MIT', 'Apache-2.0', 'ODC-BY-1.0', 'Unicode-3.0', '其他'] as const;
export const DATASET_STATUSES = ['IN_REVIEW', 'PASS', 'REJECTED'] as const;
export type DatasetStatus = (typeof DATASET_STATUSES)[number];
export const DATASET_STATUS_LABELS: Record<DatasetStatus, string> = { IN_REVIEW: '审核中', PASS: '已通过', REJECTED: '未通过' };
