import type { AppType } from '@llmor/contracts';
import { appDetailKey } from '../../../lib/entities/apps';

/** The list query the apps screen sends. */
export interface AppsListParams {
  search: string;
  appTypes: AppType[];
  order: 'created_at' | 'name' | 'app_key';
  orderDir: 'asc' | 'desc';
  /** Zero-based, as the API takes it (docs/reference/rules.md). */
  page: number;
  pageSize: number;
}

/** Query and mutation keys of the apps feature; `appKeys.all(vendorId)` covers everything of a vendor. */
export const appKeys = {
  all: (vendorId: number) => ['apps', vendorId] as const,
  lists: (vendorId: number) => ['apps', vendorId, 'list'] as const,
  list: (vendorId: number, params: AppsListParams) => ['apps', vendorId, 'list', params] as const,
  detail: appDetailKey,
  parameters: (vendorId: number, appId: number | string) =>
    ['apps', vendorId, 'parameters', String(appId)] as const,
  available: (vendorId: number) => ['apps', vendorId, 'available'] as const,
  /** The app's model picker: chat completion models of the vendor, by search text. */
  modelSearch: (vendorId: number) => ['apps', vendorId, 'model-search', 'chat_completion'] as const,
  /** The icon parameter's picker, by search text (the icons are the server's, not a vendor's). */
  icons: ['icons'] as const,
  install: (vendorId: number) => ['apps', vendorId, 'install'] as const,
  update: (vendorId: number, appId: number) => ['apps', vendorId, 'update', appId] as const,
};
