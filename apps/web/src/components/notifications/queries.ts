/**
 * The 消息通知 list's queries. They live with the panel, not in api/notifications.ts, so that the
 * infinite-query code loads with the panel's chunk and not with every console page's header.
 */
import type { Page } from '@slg/shared';
import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  fetchNotifications,
  markNotificationsRead,
  notificationKeys,
  NOTIFICATIONS_REFRESH_MS,
  type Notification,
  type NotificationQuery,
} from '../../api/notifications';

/** The newest notices first, a page at a time (加载更多). */
export function useNotificationsQuery(query: NotificationQuery) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list(query),
    queryFn: ({ pageParam }) => fetchNotifications({ ...query, page: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.reduce((sum, page) => sum + page.list.length, 0) < last.total ? last.page + 1 : undefined),
    staleTime: 0,
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
  });
}

/**
 * Marks notices read at once in every cached list and in the bell's count, then asks the server and
 * loads both again whatever it answered (a failure has toasted; the reload shows the truth). Works on
 * the query client, not a component, so a click that also navigates away still completes.
 */
export async function markReadOptimistically(queryClient: QueryClient, ids?: readonly number[]): Promise<void> {
  await queryClient.cancelQueries({ queryKey: notificationKeys.all });
  const targets = ids ? new Set(ids) : null;
  const now = new Date().toISOString();
  let newlyRead = 0;
  const seen = new Set<number>();
  queryClient.setQueriesData<InfiniteData<Page<Notification>, number>>({ queryKey: notificationKeys.lists }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            list: page.list.map((notice) => {
              if (notice.read || (targets && !targets.has(notice.id))) return notice;
              if (!seen.has(notice.id)) {
                seen.add(notice.id);
                newlyRead += 1;
              }
              return { ...notice, read: true, readAt: now };
            }),
          })),
        }
      : data,
  );
  queryClient.setQueryData<{ unread: number }>(notificationKeys.unreadCount, (data) =>
    data ? { unread: targets ? Math.max(0, data.unread - newlyRead) : 0 } : data,
  );
  try {
    await markNotificationsRead(ids);
  } finally {
    await queryClient.invalidateQueries({ queryKey: notificationKeys.all });
  }
}
