/**
 * What 消息通知 answers (`/notifications`): the server's response schemas, and the types the console
 * reads them with (`import type` only).
 */
import { z } from 'zod';

export const notificationSchema = z.object({
  id: z.number().int(),
  /** The kinds written today are listed below; a kind added later still arrives as a string. */
  kind: z.string().describe('ARREARS_POWER_OFF 欠费关机、RELEASE_REMINDER 即将释放、AUTO_RELEASED 已自动释放、PACKAGE_RENEWED 已自动续费、PACKAGE_EXPIRED 包周期到期、STOCK_AVAILABLE 到货提醒、BALANCE_LOW 余额不足、PACKAGE_EXPIRING 包年包月即将到期、VERIFICATION_DECIDED 实名认证审核结果、FILE_STORAGE_WRITES_BLOCKED 文件存储欠费禁止写入、FILE_STORAGE_DELETION_REMINDER 文件存储即将删除、FILE_STORAGE_DELETED 文件存储已删除、DATASET_REVIEWED 数据集审核结果'),
  title: z.string(),
  body: z.string(),
  instanceId: z.string().nullable().describe('相关实例ID'),
  read: z.boolean(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NotificationView = z.infer<typeof notificationSchema>;

/** `GET /notifications/unread-count`. */
export const unreadCountSchema = z.object({ unread: z.number().int() });
export type UnreadCount = z.infer<typeof unreadCountSchema>;

/** `POST /notifications/read`: how many notices were marked read. */
export const notificationsReadSchema = z.object({ updated: z.number().int() });
export type NotificationsRead = z.infer<typeof notificationsReadSchema>;
