import { lazy, Suspense, useEffect, useId } from 'react';
import { useLocation } from 'react-router';
import { useUnreadCountQuery } from '../api/notifications';
import { Button } from '../ui/Button';
import { Drawer } from '../ui/Drawer';
import { Skeleton } from '../ui/feedback';
import { BellOutlined } from '../ui/icons/BellOutlined';
import { usePopup } from '../ui/usePopup';
import './notificationBell.css';
import { LAYOUT_TEXTS } from './texts';
import { useIsPhone } from './useIsPhone';

const T = LAYOUT_TEXTS.dashboard;

/** The list is its own chunk, fetched when the bell is first opened (or pointed at): the header stays light. */
const loadPanel = () => import('../components/notifications/NotificationPanel');
const NotificationPanel = lazy(loadPanel);

/** The badge's text: nothing at 0, and 99+ past 99 (antd Badge's overflowCount). */
export function badgeText(count: number): string | null {
  if (count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

function PanelContent({ onNavigate }: { onNavigate: () => void }) {
  return (
    <Suspense
      fallback={
        <div className="slg-notice-loading">
          <Skeleton rows={3} />
        </div>
      }
    >
      <NotificationPanel onNavigate={onNavigate} />
    </Suspense>
  );
}

/**
 * 消息通知 in the console header: a bell with the unread count (polled, and loaded again when the tab
 * gets the focus back, so a stock alert that fires shows up without a reload). It opens the newest
 * notices in a popover, or in a drawer at phone width.
 */
export function NotificationBell() {
  const phone = useIsPhone();
  const location = useLocation();
  const unread = useUnreadCountQuery();
  const { open, setOpen, close, trigger, popup } = usePopup();
  const panelId = useId();
  const countId = useId();
  const badge = badgeText(unread.data ?? 0);

  // Any navigation (a notice clicked, a link elsewhere) closes the panel.
  useEffect(() => setOpen(false), [location.key, setOpen]);
  // The list loads after the panel opens: the focus goes to the panel itself meanwhile.
  useEffect(() => {
    if (open && !phone) popup.current?.focus();
  }, [open, phone, popup]);

  const warmUp = () => void loadPanel();

  return (
    <span className="slg-popup-anchor slg-notice-bell">
      <Button
        ref={trigger}
        variant="text"
        icon={<BellOutlined />}
        aria-label={T.notifications}
        aria-describedby={badge ? countId : undefined}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open && !phone ? panelId : undefined}
        onPointerEnter={warmUp}
        onFocus={warmUp}
        onClick={() => setOpen((value) => !value)}
      />
      {badge ? (
        <>
          <span className="slg-notice-badge" aria-hidden="true" data-testid="notification-badge">
            {badge}
          </span>
          <span id={countId} hidden>
            {T.unreadNotifications(unread.data ?? 0)}
          </span>
        </>
      ) : null}
      {open && phone ? (
        <Drawer open title={T.notifications} closeLabel={T.closeNotifications} onClose={() => close(true)} className="slg-notice-drawer">
          {/* Inside the popup for usePopup: a press in the list does not count as a press outside. */}
          <div ref={popup}>
            <PanelContent onNavigate={() => close()} />
          </div>
        </Drawer>
      ) : null}
      {open && !phone ? (
        <div ref={popup} id={panelId} role="dialog" aria-label={T.notifications} tabIndex={-1} className="slg-popup slg-popup-end slg-notice-popover">
          <div className="slg-notice-popover-title">{T.notifications}</div>
          <PanelContent onNavigate={() => close()} />
        </div>
      ) : null}
    </span>
  );
}
