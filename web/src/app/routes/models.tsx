import { useParams } from 'react-router';
import { NoVendorSelected } from '../../components/NoVendorSelected';
import { ModelDetail, type ModelSection, ModelsList } from '../../features/models';
import { useCurrentVendor } from '../../lib/appState';

/** /models: the installed models and the install modal. */
export function ModelsRoute() {
  const vendor = useCurrentVendor();
  if (!vendor) return <NoVendorSelected />;
  return <ModelsList key={vendor.id} vendorId={vendor.id} />;
}

/** /models/{id}/{details,usage,configuration}. */
export function ModelRoute({ section }: { section: ModelSection }) {
  const vendor = useCurrentVendor();
  const { id = '' } = useParams();
  if (!vendor) return <NoVendorSelected />;
  return <ModelDetail key={`${vendor.id}:${id}`} vendorId={vendor.id} id={id} section={section} />;
}
