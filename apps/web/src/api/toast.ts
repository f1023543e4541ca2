import type { App } from 'antd';
import { message as staticMessage } from 'antd';
import { TOAST_DURATION_MS, TOAST_OFFSET_PX } from '@slg/shared';

/** Toast options of spec §9: 3000 ms, 16 px from the top. antd takes the duration in seconds. */
export const TOAST_CONFIG = { duration: TOAST_DURATION_MS / 1000, top: TOAST_OFFSET_PX } as const;

type MessageInstance = ReturnType<typeof App.useApp>['message'];

staticMessage.config(TOAST_CONFIG);

let instance: Pick<MessageInstance, 'error' | 'success' | 'info' | 'warning'> = staticMessage;

/**
 * The console registers the context-aware instance of `App.useApp()` here so toasts follow the theme;
 * until then the static `message` API is used.
 */
export function setToastInstance(next: Pick<MessageInstance, 'error' | 'success' | 'info' | 'warning'>): void {
  instance = next;
}

export const toast = {
  error(text: string): void {
    void instance.error(text);
  },
  success(text: string): void {
    void instance.success(text);
  },
  info(text: string): void {
    void instance.info(text);
  },
};
