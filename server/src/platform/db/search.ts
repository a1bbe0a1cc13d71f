/** A case-insensitive substring pattern for `ilike`: `%`, `_` and `\` in the search are literal characters. */
export const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
