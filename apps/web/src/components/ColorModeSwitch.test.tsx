import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../api/queryClient';
import { COLOR_MODE_KEY, useColorModeStore } from '../stores/colorMode';
import { AppProviders } from '../theme/AppProviders';
import { ColorModeSwitch } from './ColorModeSwitch';

function renderSwitch() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <ColorModeSwitch />
    </AppProviders>,
  );
  return screen.getByRole('button', { name: '颜色模式' });
}

describe('colour mode switch', () => {
  beforeEach(() => {
    localStorage.removeItem(COLOR_MODE_KEY);
    useColorModeStore.setState({ preference: 'system', forced: null });
  });
  afterEach(() => cleanup());

  it('is a labelled button before its menu is loaded, and a press opens the menu', async () => {
    const button = renderSwitch();
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('menuitem')).toBeNull();
    await act(async () => {
      fireEvent.pointerDown(button);
      fireEvent.click(button);
    });
    fireEvent.click(await screen.findByRole('menuitem', { name: /深色/ }, { timeout: 5000 }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(localStorage.getItem(COLOR_MODE_KEY)).toBe('dark');
  });

  it('keeps the keyboard focus on the control when the menu loads on focus', async () => {
    const button = renderSwitch();
    await act(async () => {
      button.focus();
    });
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('颜色模式'), { timeout: 5000 });
    expect(screen.queryByRole('menuitem')).toBeNull();
    fireEvent.click(document.activeElement as HTMLElement);
    expect(await screen.findByRole('menuitem', { name: /浅色/ })).toBeTruthy();
  });
});
