import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LoginTabs } from './LoginTabs';

function Harness({ onIntent }: { onIntent?: (key: string) => void }) {
  const [active, setActive] = useState<'a' | 'b'>('a');
  return (
    <LoginTabs<'a' | 'b'>
      active={active}
      onChange={setActive}
      onIntent={onIntent}
      tabs={[
        { key: 'a', label: '密码登录', panel: <input aria-label="甲" /> },
        { key: 'b', label: '验证码登录', panel: <input aria-label="乙" /> },
      ]}
    />
  );
}

describe('sign-in method tabs', () => {
  afterEach(() => cleanup());

  it('labels the visible panel by its tab and renders only that panel', () => {
    render(<Harness />);
    const tab = screen.getByRole('tab', { name: '密码登录' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: '密码登录' })).toBeTruthy();
    expect(screen.getByLabelText('甲')).toBeTruthy();
    expect(screen.queryByLabelText('乙')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: '验证码登录' }));
    expect(screen.getByRole('tabpanel', { name: '验证码登录' })).toBeTruthy();
    expect(screen.queryByLabelText('甲')).toBeNull();
  });

  it('moves with the arrow keys, Home and End, keeping one tab in the tab order', () => {
    render(<Harness />);
    const first = screen.getByRole('tab', { name: '密码登录' });
    const second = screen.getByRole('tab', { name: '验证码登录' });
    expect([first.tabIndex, second.tabIndex]).toEqual([0, -1]);
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(second);
    expect(second.getAttribute('aria-selected')).toBe('true');
    expect([first.tabIndex, second.tabIndex]).toEqual([-1, 0]);
    fireEvent.keyDown(second, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'End' });
    expect(document.activeElement).toBe(second);
    fireEvent.keyDown(second, { key: 'Home' });
    expect(document.activeElement).toBe(first);
  });

  it('reports the intent to open a tab on hover and focus', () => {
    const onIntent = vi.fn();
    render(<Harness onIntent={onIntent} />);
    fireEvent.pointerEnter(screen.getByRole('tab', { name: '验证码登录' }));
    expect(onIntent).toHaveBeenCalledWith('b');
  });
});
