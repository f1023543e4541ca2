/**
 * 消息通知 (`/notifications`): the platform's notices to the signed-in account (arrears, release
 * reminders, package expiry, stock alerts). The server scopes them: a sub-account sees those about
 * what it created.
 */
import type { Page } from '@slg/shared';
import type { NotificationView as Notification, NotificationsRead, UnreadCount } from '@slg/shared/views/notifications';
import { useQuery } from '@tanstack/react-query';
import { request } from './client';
import { queryKeys } from './queryKeys';

/** The kinds the server writes today; a kind added later still arrives as a string. */
export const NOTIFICATION_KINDS = [
  'ARREARS_POWER_OFF',
  'RELEASE_REMINDER',
  'AUTO_RELEASED',
  'PACKAGE_RENEWED',
  'PACKAGE_EXPIRED',
  'STOCK_AVAILABLE',
  'BALANCE_LOW',
  'PACKAGE_EXPIRING',
  'VERIFICATION_DECIDED',
  'FILE_STORAGE_WRITES_BLOCKED',
  'FILE_STORAGE_DELETION_REMINDER',
  'FILE_STORAGE_DELETED',
  'DATASET_REVIEWED',
] as const;
export type KnownNotificationKind = (typeof NOTIFICATION_KINDS)[number];

export type { NotificationView as Notification, NotificationsRead, UnreadCount } from '@slg/shared/views/notifications';

export interface NotificationQuery {
  pageSize: number;
  /** Only the unread ones (仅看未读). */
  unread: boolean;
}

export const notificationKeys = {
  all: queryKeys.notifications,
  unreadCount: [...queryKeys.notifications, 'unread-count'] as const,
  lists: [...queryKeys.notifications, 'list'] as const,
  list: (query: NotificationQuery) => [...queryKeys.notifications, 'list', query] as const,
} as const;

/** A stock alert fires within about 30 s of the GPUs coming free: the header's count refreshes this often. */
export const NOTIFICATIONS_REFRESH_MS = 30_000;

/** Silent: a failing poll must not toast; the bell keeps its last count. */
export function fetchUnreadCount(): Promise<UnreadCount> {
  return request<UnreadCount>({ url: '/notifications/unread-count', silent: true });
}

/** Silent: the panel shows its own load error. */
export function fetchNotifications(query: NotificationQuery & { page: number }): Promise<Page<Notification>> {
  const params: Record<string, unknown> = { page: query.page, pageSize: query.pageSize };
  if (query.unread) params.unread = 'true';
  return request<Page<Notification>>({ url: '/notifications', params, silent: true });
}

/** Marks these notices read, or every one the caller sees when `ids` is omitted. A failure toasts. */
export function markNotificationsRead(ids?: readonly number[]): Promise<NotificationsRead> {
  return request<NotificationsRead>({ method: 'POST', url: '/notifications/read', data: ids ? { ids } : {} });
}

/** The header bell's count: polled, and loaded again whenever the tab gets the focus back. */
export function useUnreadCountQuery(enabled = true) {
  return useQuery({
    queryKey: notificationKeys.unreadCount,
    queryFn: fetchUnreadCount,
    select: (data) => data.unread,
    enabled,
    staleTime: 0,
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  });
}
