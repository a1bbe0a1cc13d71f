import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import {
  AdminNav,
  AdminQueuePage,
  AdminVendorPage,
  type AdminVendorSection,
  AdminVendorsPage,
} from '../../features/admin';
import { AdminPlansPage, VendorSubscriptions } from '../../features/billing';
import { useAppState } from '../../lib/appState';
import { NotFoundRoute } from './NotFoundRoute';

/** Admin pages are for superusers; anyone else finds nothing here (like the API's 404). */
function SuperusersOnly({ children }: { children: ReactNode }) {
  const { user } = useAppState();
  return user?.is_su ? children : <NotFoundRoute />;
}

export function AdminVendorsRoute() {
  return (
    <SuperusersOnly>
      <AdminVendorsPage />
    </SuperusersOnly>
  );
}

export function AdminVendorRoute({ section }: { section: AdminVendorSection }) {
  const { id } = useParams();
  return (
    <SuperusersOnly>
      <AdminVendorPage
        vendorId={Number(id)}
        section={section}
        subscriptions={<VendorSubscriptions vendorId={Number(id)} />}
      />
    </SuperusersOnly>
  );
}

export function AdminPlansRoute() {
  return (
    <SuperusersOnly>
      <AdminPlansPage nav={<AdminNav active="plans" />} />
    </SuperusersOnly>
  );
}

export function AdminQueueRoute() {
  return (
    <SuperusersOnly>
      <AdminQueuePage />
    </SuperusersOnly>
  );
}
