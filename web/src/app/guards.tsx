import { Navigate, Outlet, useLocation } from 'react-router';
import { NoVendorSelected } from '../components/NoVendorSelected';
import { useAppState } from '../lib/appState';

/** Signed-out users are sent to /login. */
export function RequireAuth() {
  const { authenticated } = useAppState();
  const location = useLocation();
  if (!authenticated) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/** Signed-in users on /login go to the dashboard. */
export function RedirectIfAuthenticated() {
  const { authenticated } = useAppState();
  if (authenticated) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** Vendor-scoped pages are replaced by the 'no vendor selected' message when none is selected. */
export function RequireVendor() {
  const { vendor } = useAppState();
  if (!vendor) return <NoVendorSelected />;
  return <Outlet />;
}
