import { Navigate, Outlet, useLocation, useSearchParams } from 'react-router';
import { NoVendorSelected } from '../components/NoVendorSelected';
import { useAppState } from '../lib/appState';
import { safeReturnPath } from '../lib/returnPath';

/** Signed-out users are sent to /login. */
export function RequireAuth() {
  const { authenticated } = useAppState();
  const location = useLocation();
  if (!authenticated) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  return <Outlet />;
}

/**
 * Signed-in users on /login go to the dashboard, or back to where `?next=` says when it is a path of this
 * console (an invitation link that asked them to sign in first).
 */
export function RedirectIfAuthenticated() {
  const { authenticated } = useAppState();
  const [search] = useSearchParams();
  if (authenticated) return <Navigate to={safeReturnPath(search.get('next')) ?? '/'} replace />;
  return <Outlet />;
}

/** Vendor-scoped pages are replaced by the 'no vendor selected' message when none is selected. */
export function RequireVendor() {
  const { vendor } = useAppState();
  if (!vendor) return <NoVendorSelected />;
  return <Outlet />;
}
