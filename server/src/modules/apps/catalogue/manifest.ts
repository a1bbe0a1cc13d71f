import { APP_TYPES, ICON_SCHEME, parameterDefinition } from '@llmor/contracts';
import { z } from 'zod';

/**
 * One installable app: what `GET …/apps/available` lists and `POST …/apps` installs.
 * `defaults` holds the value of every definition that has one, keyed by its value key.
 */
export const appManifest = z.strictObject({
  app_key: z.string().regex(/^[a-z][a-z0-9_]*$/),
  name: z.string().min(1).max(200),
  description: z.string().max(2000),
  type: z.enum(APP_TYPES),
  /** `icon:<tabler icon name>`. */
  icon: z.string().startsWith(ICON_SCHEME),
  icon_is_standalone: z.boolean().default(false),
  parameters: z.array(parameterDefinition),
  defaults: z.record(z.string(), z.unknown()),
});
export type AppManifest = z.output<typeof appManifest>;
export type AppManifestInput = z.input<typeof appManifest>;
