import { useCallback, useEffect, useState } from 'react';

/**
 * A seconds countdown to a deadline: `start(60)` then `remaining` ticks down to 0. It reads the clock
 * on every tick, so a background tab whose timers were slowed still shows the real seconds left.
 */
export function useCountdown() {
  const [deadline, setDeadline] = useState(0);
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (remaining <= 0) return undefined;
    const timer = setTimeout(() => setRemaining(Math.max(0, Math.ceil((deadline - Date.now()) / 1000))), 1000);
    return () => clearTimeout(timer);
  }, [deadline, remaining]);

  const start = useCallback((seconds: number) => {
    const whole = Math.max(0, Math.floor(seconds));
    setDeadline(Date.now() + whole * 1000);
    setRemaining(whole);
  }, []);

  return { remaining, running: remaining > 0, start };
}
