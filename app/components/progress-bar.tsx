import { useFetchers, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';

type NProgress = typeof import('nprogress');

let loading: Promise<NProgress> | undefined;

/**
 * NProgress arrives with the first navigation or fetcher, not with the page: a page that is only read never needs
 * it, and its 1.5 KB (compressed) would otherwise be on every first load of a slow phone. The bar shows once it has
 * come, a round trip that runs beside the navigation's own.
 */
function loadNProgress() {
  loading ??= import('nprogress').then(
    ({ default: NProgress }) => {
      // Speed 100 ms and a 100 ms trickle; the bar's colour and 2 px height are in tailwind.css.
      // The template drops NProgress's default role="bar", which is not an ARIA role (axe flags it).
      NProgress.configure({
        showSpinner: false,
        speed: 100,
        trickleSpeed: 100,
        template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>',
        barSelector: '.bar',
      });
      return NProgress;
    },
    (error: unknown) => {
      loading = undefined; // offline: the next navigation asks again
      throw error;
    },
  );
  return loading;
}

/**
 * The thin loading bar at the top of every page (idle → in progress → complete → idle).
 * While a navigation or a fetcher loads data it stands at 20 %; when everything is idle again it completes to
 * 100 % and NProgress removes it, back at 0.
 */
export function ProgressBar() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== 'idle' || fetchers.some((fetcher) => fetcher.state !== 'idle');
  useEffect(() => {
    if (!busy && !loading) return; // idle, and never busy yet: nothing to load
    let current = true;
    loadNProgress().then(
      (NProgress) => {
        // A state that has passed by the time NProgress came is not shown.
        if (!current) return;
        if (busy) NProgress.set(0.2);
        else if (NProgress.isStarted()) NProgress.done();
      },
      () => {},
    );
    return () => {
      current = false;
    };
  }, [busy]);

  return null;
}
