import { useCallback, useEffect, useState } from 'react';

/** A seconds countdown: `start(60)` then `remaining` ticks down to 0 once per second. */
export function useCountdown() {
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (remaining <= 0) return undefined;
    const timer = setTimeout(() => setRemaining((value) => Math.max(0, value - 1)), 1000);
    return () => clearTimeout(timer);
  }, [remaining]);

  const start = useCallback((seconds: number) => setRemaining(Math.max(0, Math.floor(seconds))), []);

  return { remaining, running: remaining > 0, start };
}
