/** Stock alerts (到货提醒): rules shared by the server and the console. */

/** Waiting alerts one user may keep at once (fired ones do not count). */
export const MAX_WAITING_STOCK_ALERTS = 20;

/** WAITING until GPUs are free, then NOTIFIED (an alert fires once). */
export const STOCK_ALERT_STATUSES = [
  { value: 'WAITING', label: '等待中' },
  { value: 'NOTIFIED', label: '已提醒' },
] as const;
export type StockAlertStatus = (typeof STOCK_ALERT_STATUSES)[number]['value'];

export function stockAlertStatusLabel(status: StockAlertStatus): string {
  return STOCK_ALERT_STATUSES.find((item) => item.value === status)?.label ?? status;
}
