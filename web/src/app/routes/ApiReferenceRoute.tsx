import { ApiReference } from '../../features/api-reference';

export function ApiReferenceRoute() {
  return <ApiReference />;
}
