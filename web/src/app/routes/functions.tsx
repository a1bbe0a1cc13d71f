import { useParams, useSearchParams } from 'react-router';
import { NoVendorSelected } from '../../components/NoVendorSelected';
import {
  FunctionDetail,
  type FunctionSection,
  FunctionsList,
  functionRouteId,
} from '../../features/functions';
import { useCurrentVendor } from '../../lib/appState';
import { NotFoundRoute } from './NotFoundRoute';

/** /functions: the vendor's functions. */
export function FunctionsRoute() {
  const vendor = useCurrentVendor();
  if (!vendor) return <NoVendorSelected />;
  return <FunctionsList key={vendor.id} vendorId={vendor.id} />;
}

/** /functions/{id}/{details,editor,runs}: '+' creates (optional ?app_id=), other ids must be numeric. */
export function FunctionRoute({ section }: { section: FunctionSection }) {
  const vendor = useCurrentVendor();
  const { id } = useParams();
  const [search] = useSearchParams();
  const parsed = functionRouteId(id);
  if (!vendor) return <NoVendorSelected />;
  if (!parsed) return <NotFoundRoute />;
  const appId = functionRouteId(search.get('app_id') ?? undefined);
  return (
    <FunctionDetail
      key={`${vendor.id}:${id}`}
      vendorId={vendor.id}
      id={parsed.kind === 'id' ? parsed.id : null}
      section={section}
      appId={appId?.kind === 'id' ? appId.id : null}
    />
  );
}
