/** A JSON object (not null, not an array): what parameters, state, config and arguments must be. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
