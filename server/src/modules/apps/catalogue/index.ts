/**
 * The catalogue of installable apps: one manifest per file, checked when first read (a bad manifest
 * stops the process naming it). Add an app by adding a file and listing it below.
 */
import { isKnownIcon } from '../../icons/icon-set';
import { validateParameters, valueKeyOf } from '../parameters';
import { chatbot } from './chatbot';
import { generic } from './generic';
import { type AppManifest, type AppManifestInput, appManifest } from './manifest';
import { silicon } from './silicon';
import { summarizer } from './summarizer';
import { translator } from './translator';

export type { AppManifest } from './manifest';

const MANIFESTS: AppManifestInput[] = [chatbot, summarizer, translator, silicon, generic];

/** Parses a manifest and checks its definitions and defaults agree; throws naming the app. */
export function checkManifest(input: AppManifestInput, isIcon: (name: string) => boolean): AppManifest {
  const parsed = appManifest.safeParse(input);
  if (!parsed.success) throw new Error(`App manifest ${input.app_key}: ${parsed.error.message}`);
  const manifest = parsed.data;
  const names = new Set<string>();
  const keys = new Set<string>();
  for (const def of manifest.parameters) {
    if (names.has(def.name))
      throw new Error(`App manifest ${manifest.app_key}: duplicate parameter ${def.name}`);
    names.add(def.name);
    const key = valueKeyOf(def);
    if (key === null) continue;
    if (keys.has(key)) throw new Error(`App manifest ${manifest.app_key}: duplicate value key ${key}`);
    keys.add(key);
    if (!Object.hasOwn(manifest.defaults, key)) {
      throw new Error(`App manifest ${manifest.app_key}: no default for ${key}`);
    }
  }
  const result = validateParameters(manifest.parameters, manifest.defaults, { isIcon });
  if (!result.ok) {
    throw new Error(`App manifest ${manifest.app_key}: bad defaults ${JSON.stringify(result.errors)}`);
  }
  const icon = manifest.icon.slice('icon:'.length);
  if (!isIcon(icon)) throw new Error(`App manifest ${manifest.app_key}: unknown icon ${icon}`);
  return manifest;
}

let catalogue: Map<string, AppManifest> | null = null;

/** Every installable app, by app_key (in app_key order). */
export function appCatalogue(): ReadonlyMap<string, AppManifest> {
  if (!catalogue) {
    const list = MANIFESTS.map((m) => checkManifest(m, isKnownIcon)).sort((a, b) =>
      a.app_key.localeCompare(b.app_key),
    );
    catalogue = new Map(list.map((m) => [m.app_key, m]));
    if (catalogue.size !== list.length) throw new Error('App catalogue: duplicate app_key');
  }
  return catalogue;
}

export function findManifest(appKey: string): AppManifest | null {
  return appCatalogue().get(appKey) ?? null;
}
