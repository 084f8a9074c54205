import { useFetchers, useNavigation } from '@remix-run/react';
import NProgress from 'nprogress';
import { useEffect } from 'react';

// Spec §2: speed 100 ms and a 100 ms trickle; the bar's colour and 2 px height are in tailwind.css.
// The template drops NProgress's default role="bar", which is not an ARIA role (axe flags it).
NProgress.configure({
  showSpinner: false,
  speed: 100,
  trickleSpeed: 100,
  template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
  barSelector: '.bar',
});

/**
 * The thin loading bar at the top of every page (spec §2, §4: idle → in progress → complete → idle).
 * While a navigation or a fetcher loads data it stands at 20 %; when everything is idle again it completes to
 * 100 % and NProgress removes it, back at 0.
 */
export function ProgressBar() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== 'idle' || fetchers.some((fetcher) => fetcher.state !== 'idle');

  useEffect(() => {
    if (busy) NProgress.set(0.2);
    else if (NProgress.isStarted()) NProgress.done();
  }, [busy]);

  return null;
}
