import { Outlet } from '@remix-run/react';
import { useEffect } from 'react';
import { disconnect } from '~/utils/realtime';

/** The unauthenticated area: entering it drops the realtime connection. */
export default function UnauthenticatedLayout() {
  useEffect(() => {
    disconnect();
  }, []);
  return <Outlet />;
}
