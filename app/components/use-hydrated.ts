import { useEffect, useState } from 'react';

let hydrated = false;

/**
 * False during the server render and the first client render, true afterwards. Components use it to render a
 * plain-HTML fallback (a link, a <details> disclosure) until JavaScript has taken over, so every core flow
 * also works with JavaScript disabled.
 */
export function useHydrated() {
  const [isHydrated, setIsHydrated] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setIsHydrated(true);
  }, []);
  return isHydrated;
}
