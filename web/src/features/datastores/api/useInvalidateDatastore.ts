import { useQueryClient } from '@tanstack/react-query';
import { datastoreKeys } from './keys';

/** Refreshes the documents and the status of a datastore after a change. */
export function useInvalidateDatastore() {
  const client = useQueryClient();
  return (datastoreId: number) =>
    Promise.all([
      client.invalidateQueries({ queryKey: datastoreKeys.documents(datastoreId) }),
      client.invalidateQueries({ queryKey: datastoreKeys.status(datastoreId) }),
    ]);
}
