import { useQuery } from '@tanstack/react-query';
import { modelQueryOptions } from '../../../lib/entities/models';

export function useModel(vendorId: number, id: string) {
  return useQuery(modelQueryOptions(vendorId, id));
}
