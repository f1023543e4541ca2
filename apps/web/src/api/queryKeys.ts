/** Query keys shared by every page, so a page that changes money can invalidate the balance. */
export const queryKeys = {
  balance: ['account', 'balance'] as const,
} as const;
