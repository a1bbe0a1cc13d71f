/**
 * Where to go after signing in (`/login?next=…`): only a path of this console, never another origin
 * (`//host`, `/\host`, `https://…`), so a crafted sign-in link cannot send anyone elsewhere.
 */
export function safeReturnPath(next: string | null | undefined): string | null {
  if (!next || next.length > 2000) return null;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  // Control characters (a tab or newline inside `/\t/host`) are dropped by URL parsers: refuse them.
  if ([...next].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  try {
    const base = 'http://console.invalid';
    const url = new URL(next, base);
    if (url.origin !== base) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The sign-in page's address that comes back to `path` afterwards. */
export function loginReturningTo(path: string): string {
  return `/login?next=${encodeURIComponent(path)}`;
}
