import { useEffect, useState } from 'react';

/** The current time, renewed every minute, for "how long ago" and the 24-hour figures. */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
