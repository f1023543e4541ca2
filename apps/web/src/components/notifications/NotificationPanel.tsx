/**
 * The 消息通知 list behind the header bell, loaded on first open. Plain elements on the theme's CSS
 * variables like the rest of the header, so opening it never pulls antd into a page without it.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useUnreadCountQuery, type KnownNotificationKind, type Notification } from '../../api/notifications';
import { COMPUTE_PATHS } from '../../pages/ctrl-container-instances/paths';
import { VERIFY_PATHS } from '../../pages/ctrl-personal-center/authentication/paths';
import type { SessionSnapshot } from '../../router/guards';
import { visibleTo } from '../../router/menus';
import { findRoute } from '../../router/routes';
import { sessionSnapshot } from '../../session/session';
import { useUserStore } from '../../stores/user';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { Alert, Skeleton } from '../../ui/feedback';
import './notifications.css';
import { markReadOptimistically, useNotificationsQuery } from './queries';
import { NOTIFICATION_TEXTS as T } from './texts';

const PAGE_SIZE = 10;

type Tone = 'error' | 'warning' | 'success' | 'primary' | 'default';

const KIND_TONES: Record<KnownNotificationKind, Tone> = {
  ARREARS_POWER_OFF: 'error',
  RELEASE_REMINDER: 'warning',
  AUTO_RELEASED: 'default',
  PACKAGE_RENEWED: 'primary',
  PACKAGE_EXPIRED: 'warning',
  STOCK_AVAILABLE: 'success',
  BALANCE_LOW: 'warning',
  PACKAGE_EXPIRING: 'warning',
  VERIFICATION_DECIDED: 'primary',
  FILE_STORAGE_WRITES_BLOCKED: 'error',
  FILE_STORAGE_DELETION_REMINDER: 'warning',
  FILE_STORAGE_DELETED: 'default',
  DATASET_REVIEWED: 'primary',
};

function isKnownKind(kind: string): kind is KnownNotificationKind {
  return Object.hasOwn(KIND_TONES, kind);
}

function KindTag({ kind }: { kind: string }) {
  const known = isKnownKind(kind);
  return <span className={`slg-tag slg-notice-tag slg-notice-tag-${known ? KIND_TONES[kind] : 'default'}`}>{known ? T.kinds[kind] : T.otherKind}</span>;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** `2026-06-16 10:00` in local time. */
export function absoluteTime(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** 刚刚 / N分钟前 / N小时前 / N天前 within a week, the date and time after that. */
export function relativeTime(date: Date, now: Date): string {
  const seconds = Math.max(0, Math.floor((now.getTime() - date.getTime()) / 1000));
  if (seconds < 60) return T.justNow;
  if (seconds < 3600) return T.minutesAgo(Math.floor(seconds / 60));
  if (seconds < 86_400) return T.hoursAgo(Math.floor(seconds / 3600));
  if (seconds < 7 * 86_400) return T.daysAgo(Math.floor(seconds / 86_400));
  return absoluteTime(date);
}

/**
 * Where a notice leads: a stock alert to the market (rent the GPUs now), a low balance to 充值, a notice
 * about a live instance to the instance list; nowhere when the session may not open that page. A
 * released instance is gone.
 */
export function noticeTarget(notice: Notification, session: SessionSnapshot): string | null {
  if (notice.kind === 'BALANCE_LOW') return visiblePath(COMPUTE_PATHS.recharge, session);
  if (notice.kind === 'VERIFICATION_DECIDED') return visiblePath(VERIFY_PATHS.overview, session);
  if (notice.kind === 'DATASET_REVIEWED') return visiblePath('/ctrl-data-set/data-set/shared-data', session);
  const path = notice.kind === 'STOCK_AVAILABLE' ? COMPUTE_PATHS.market : notice.instanceId && notice.kind !== 'AUTO_RELEASED' ? COMPUTE_PATHS.list : null;
  return path ? visiblePath(path, session) : null;
}

function visiblePath(path: string, session: SessionSnapshot): string | null {
  const route = findRoute(path);
  return route?.page && visibleTo(route, session) ? path : null;
}

function NoticeContent({ notice, now }: { notice: Notification; now: Date }) {
  const created = new Date(notice.createdAt);
  return (
    <>
      <span className="slg-notice-item-head">
        <KindTag kind={notice.kind} />
        <span className="slg-notice-item-title">{notice.title}</span>
        {notice.read ? null : (
          <span className="slg-notice-dot">
            <span className="slg-notice-sr">{T.unread}</span>
          </span>
        )}
      </span>
      <span className="slg-notice-item-body">{notice.body}</span>
      <time className="slg-notice-item-time" dateTime={notice.createdAt} title={absoluteTime(created)}>
        {relativeTime(created, now)}
      </time>
    </>
  );
}

export interface NotificationPanelProps {
  /** Called when a notice leads to another page (the bell closes its panel). */
  onNavigate: () => void;
}

/** 仅看未读, 全部已读 and the newest notices, a page at a time; a notice clicked is read and leads to its page. */
export default function NotificationPanel({ onNavigate }: NotificationPanelProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const session = sessionSnapshot(useUserStore());
  const [unreadOnly, setUnreadOnly] = useState(false);
  const [markingAll, setMarkingAll] = useState(false);
  const unread = useUnreadCountQuery();
  const notices = useNotificationsQuery({ pageSize: PAGE_SIZE, unread: unreadOnly });
  const now = new Date();

  async function markAllRead() {
    setMarkingAll(true);
    try {
      await markReadOptimistically(queryClient);
    } catch {
      // The client has toasted the failure; the lists and the count are loaded again.
    } finally {
      setMarkingAll(false);
    }
  }

  function open(notice: Notification) {
    if (!notice.read) void markReadOptimistically(queryClient, [notice.id]).catch(() => undefined);
    const target = noticeTarget(notice, session);
    if (target) {
      onNavigate();
      navigate(target);
    }
  }

  const items = notices.data?.pages.flatMap((page) => page.list) ?? [];
  const anyUnread = (unread.data ?? 0) > 0 || items.some((notice) => !notice.read);

  let body;
  if (notices.isPending) {
    body = (
      <div className="slg-notice-state" role="status" aria-busy="true">
        <Skeleton rows={3} />
      </div>
    );
  } else if (notices.isError && items.length === 0) {
    body = (
      <div className="slg-notice-state">
        <Alert
          type="error"
          title={T.loadFailed}
          description={notices.error.message}
          action={
            <Button size="small" onClick={() => void notices.refetch()}>
              {T.retry}
            </Button>
          }
        />
      </div>
    );
  } else if (items.length === 0) {
    body = <p className="slg-notice-state slg-notice-empty">{unreadOnly ? T.emptyUnread : T.empty}</p>;
  } else {
    body = (
      <>
        <ul className="slg-notice-list" aria-label={T.list}>
          {items.map((notice) => {
            const className = notice.read ? 'slg-notice-item' : 'slg-notice-item is-unread';
            const actionable = !notice.read || noticeTarget(notice, session) !== null;
            return (
              <li key={notice.id}>
                {actionable ? (
                  <button type="button" className={`${className} is-actionable`} onClick={() => open(notice)}>
                    <NoticeContent notice={notice} now={now} />
                  </button>
                ) : (
                  <div className={className}>
                    <NoticeContent notice={notice} now={now} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
        {notices.isFetchNextPageError ? (
          <div className="slg-notice-state">
            <Alert
              type="error"
              title={T.loadMoreFailed}
              description={notices.error?.message}
              action={
                <Button size="small" onClick={() => void notices.fetchNextPage()}>
                  {T.retry}
                </Button>
              }
            />
          </div>
        ) : notices.hasNextPage ? (
          <div className="slg-notice-more">
            <Button block variant="text" loading={notices.isFetchingNextPage} onClick={() => void notices.fetchNextPage()}>
              {T.loadMore}
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <div className="slg-notice-panel">
      <div className="slg-notice-toolbar">
        <Checkbox checked={unreadOnly} onCheckedChange={setUnreadOnly}>
          {T.unreadOnly}
        </Checkbox>
        <Button size="small" variant="link" loading={markingAll} disabled={!anyUnread} onClick={() => void markAllRead()}>
          {T.markAllRead}
        </Button>
      </div>
      <div className="slg-notice-scroll">{body}</div>
    </div>
  );
}
