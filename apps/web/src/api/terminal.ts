/**
 * 快捷工具: whether instances here have a shell (simulated ones do not), a one-minute ticket that opens
 * 终端 over the WebSocket `GET /api/v1/rental/terminal`, and the session cookie that opens Jupyter and TensorBoard.
 */
import { API_BASE, request } from './client';

export interface TerminalAvailability {
  available: boolean;
  /** Why not, in words for the user; null when available. */
  reason: string | null;
}

export const terminalKeys = { availability: ['terminal', 'availability'] as const };

export function fetchTerminalAvailability(signal?: AbortSignal): Promise<TerminalAvailability> {
  return request<TerminalAvailability>({ url: '/rental/terminal/available', silent: true, signal });
}

/** Silent: the terminal page shows a refusal in place. */
export function issueTerminalTicket(instanceId: string): Promise<{ ticket: string; expiresAt: string }> {
  return request<{ ticket: string; expiresAt: string }>({ method: 'POST', url: '/rental/terminal/ticket', data: { instanceId }, silent: true });
}

/** The WebSocket address of a terminal of this size, on the console's own origin. */
export function terminalSocketUrl(ticket: string, size: { cols: number; rows: number }, origin = window.location.origin): string {
  const query = new URLSearchParams({ ticket, cols: String(size.cols), rows: String(size.rows) });
  return `${origin.replace(/^http/, 'ws')}${API_BASE}/rental/terminal?${query.toString()}`;
}

export interface ToolAddresses {
  jupyterUrl: string;
  tensorboardUrl: string;
}

/** Lets this browser into the instance's tools (a cookie scoped to them); answers where Jupyter and TensorBoard are. */
export function openToolsSession(instanceId: string): Promise<ToolAddresses> {
  return request<ToolAddresses>({ method: 'POST', url: '/rental/tools/session', data: { instanceId } });
}
