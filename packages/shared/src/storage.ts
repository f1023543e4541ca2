/** 文件存储: limits shared by the server and the console. */
export const FILE_STORAGE_MOUNT = '/root/slg-fs';
/** Free per main account and region; beyond it usage is billed per GB·day. */
export const FILE_STORAGE_FREE_GB = 20;
export const FILE_STORAGE_DEFAULT_QUOTA_GB = 200;
export const FILE_STORAGE_MAX_QUOTA_GB = 2048;
/** 1 GB of file storage, in bytes (GiB, as `du` and the usage bar count). */
export const FILE_STORAGE_GB_BYTES = 1024 ** 3;
/** A file or folder name: at most 255 bytes of UTF-8. */
export const FILE_NAME_MAX_BYTES = 255;
/** Days in arrears after which writes are refused, and after which the store is deleted. */
export const FILE_STORAGE_BLOCK_DAYS = 15;
export const FILE_STORAGE_DELETE_DAYS = 30;
