/** Pure helpers of the Apps feature (unit-tested in lib.test.ts). */

import {
  type AppOrderColumn,
  type ConversationRole,
  type ConversationSample,
  type ParameterDefinition,
  VISUAL_GRID_BUCKETS,
} from '@llmor/contracts';
import { errorsUnder, type FieldMessages } from '../../lib/form';

// ---------------------------------------------------------------------------------------------------
// List: sort and filter (docs/reference/console.md Apps list)
// ---------------------------------------------------------------------------------------------------

export interface SortOption {
  value: string;
  /** Key under apps.list.sortOptions. */
  label: 'newest' | 'oldest' | 'nameAsc' | 'nameDesc' | 'keyAsc' | 'keyDesc';
  order: AppOrderColumn;
  direction: 'asc' | 'desc';
}

export const SORT_OPTIONS: readonly SortOption[] = [
  { value: 'created_at:desc', label: 'newest', order: 'created_at', direction: 'desc' },
  { value: 'created_at:asc', label: 'oldest', order: 'created_at', direction: 'asc' },
  { value: 'name:asc', label: 'nameAsc', order: 'name', direction: 'asc' },
  { value: 'name:desc', label: 'nameDesc', order: 'name', direction: 'desc' },
  { value: 'app_key:asc', label: 'keyAsc', order: 'app_key', direction: 'asc' },
  { value: 'app_key:desc', label: 'keyDesc', order: 'app_key', direction: 'desc' },
];
export const DEFAULT_SORT = 'created_at:desc';

export function sortOption(value: string): SortOption {
  return SORT_OPTIONS.find((o) => o.value === value) ?? SORT_OPTIONS[0]!;
}

/** Active filters: filter id → chosen option values. A filter without options is absent. */
export type Filters = Record<string, string[]>;

/** Toggles one option of a filter; removing the last option removes the filter (docs/reference/console.md Apps list). */
export function toggleFilterOption(filters: Filters, filterId: string, value: string): Filters {
  const current = filters[filterId] ?? [];
  const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
  const { [filterId]: _removed, ...rest } = filters;
  return next.length > 0 ? { ...rest, [filterId]: next } : rest;
}

// ---------------------------------------------------------------------------------------------------
// Configuration form
// ---------------------------------------------------------------------------------------------------

/** Column span of a definition: 12, 6, 4 or 3; other values take the nearest wider bucket (docs/reference/console.md). */
export function gridSpan(visualGrid: number | undefined): number {
  if (visualGrid === undefined) return 12;
  const ascending = [...VISUAL_GRID_BUCKETS].sort((a, b) => a - b);
  return ascending.find((bucket) => bucket >= visualGrid) ?? 12;
}

/** Where a definition's value lives in `app.parameters`; null for `visual.header`. */
export function valueKeyOf(def: ParameterDefinition): string | null {
  return def.type === 'visual.header' ? null : (def.params.value_key ?? def.name);
}

/** Clicking the avatar cycles the role user → assistant → user (docs/reference/console.md). */
export const cycleRole = (role: ConversationRole): ConversationRole =>
  role === 'user' ? 'assistant' : 'user';

/** A new message takes the role after the last one, starting with user. */
export function nextRole(messages: readonly ConversationSample[]): ConversationRole {
  const last = messages.at(-1);
  return last ? cycleRole(last.role) : 'user';
}

/** Whether a text is over its max length (docs/reference/rules.md: 'Max length is N characters.'). */
export const isTooLong = (text: string, max: number | undefined) => max !== undefined && text.length > max;

// ---------------------------------------------------------------------------------------------------
// Server validation errors (docs/reference/rules.md: a per-field map; parameters keyed by parameter then sub key)
// ---------------------------------------------------------------------------------------------------

/** The sub-key map of one parameter's errors (`parameters.<name>.<sub>`; a message on the parameter is `value`). */
export function parameterErrors(errors: FieldMessages, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [sub, messages] of Object.entries(errorsUnder(errors, `parameters.${name}`))) {
    out[sub === '' ? 'value' : sub] = messages.join(' ');
  }
  return out;
}

/**
 * One line per parameter error (`errors` as `errorsUnder(all, 'parameters')`), for a single field holding
 * all parameters (the JSON editor in Details) or the errors the grid cannot place.
 */
export function parametersErrorLines(errors: FieldMessages): string[] {
  return Object.entries(errors).flatMap(([path, messages]) => {
    const label = path.endsWith('.value') ? path.slice(0, -'.value'.length) : path;
    return messages.map((m) => (label ? `${label}: ${m}` : m));
  });
}
