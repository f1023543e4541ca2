/**
 * The navigation state registration arrives at /welcome with: only then does the page say 注册成功.
 * A module of its own so the sign-up page does not load the welcome page to name it.
 */
export const JUST_REGISTERED_STATE = { registered: true } as const;

export function justRegistered(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { registered?: unknown }).registered === true;
}
