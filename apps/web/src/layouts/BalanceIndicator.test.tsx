import { focusManager } from '@tanstack/react-query';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { callsTo, mockApi, ok, renderPage } from '../pages/ctrl-cost-center/testing';
import { BalanceIndicator } from './BalanceIndicator';

afterEach(() => {
  cleanup();
  focusManager.setFocused(undefined);
});

describe('header balance', () => {
  it('loads again when the tab gets the focus back (the user paid in another tab)', async () => {
    let balance = 0;
    const api = mockApi({ 'GET /account/': () => ok({ totalBalance: balance }) });
    renderPage(<BalanceIndicator />);
    expect((await screen.findByLabelText('账户余额', undefined, { timeout: 5000 })).textContent).toBe('¥0.00');

    balance = 5_000;
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(screen.getByLabelText('账户余额').textContent).toBe('¥50.00'), { timeout: 5000 });
    expect(callsTo(api.fetchMock, 'GET', '/account/')).toHaveLength(2);
  });
});
