import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SmsCodeButton } from '../components/SmsCodeButton';
import { useCountdown } from './useCountdown';

function Harness() {
  const countdown = useCountdown();
  return <SmsCodeButton remaining={countdown.remaining} sending={false} onClick={() => countdown.start(60)} />;
}

describe('SMS code countdown', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('counts 60 s down after sending, then offers 获取验证码 again', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    const waiting = screen.getByRole('button', { name: '60秒后重新获取' }) as HTMLButtonElement;
    expect(waiting.disabled).toBe(true);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('button', { name: '59秒后重新获取' })).toBeTruthy();
    for (let i = 0; i < 59; i += 1) act(() => vi.advanceTimersByTime(1000));
    const again = screen.getByRole('button', { name: '获取验证码' }) as HTMLButtonElement;
    expect(again.disabled).toBe(false);
  });

  it('shows the real seconds left even when its timer fired late (a background tab)', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: '获取验证码' }));
    // 20 s pass on the clock while the timer could not run.
    vi.setSystemTime(Date.now() + 20_000);
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.getByRole('button', { name: '39秒后重新获取' })).toBeTruthy();
  });
});
