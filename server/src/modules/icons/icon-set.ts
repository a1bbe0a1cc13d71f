/**
 * The bundled icon set: the tabler icons the console renders (`@tabler/icons-react`), with their SVGs
 * from `@tabler/icons` (the react package's own dependency). Read once, on first use.
 *
 * Names are kebab-case (`robot`, `message-chatbot`, `star-filled`). Sources, in order:
 * 1. `@tabler/icons-react/dist/esm/icons-list.mjs` — the react package's list of every icon it exports;
 * 2. else the SVG files of `@tabler/icons` (`icons/outline/*.svg`, and `icons/filled/*.svg` as `<name>-filled`).
 * SVGs: `icons/outline/<name>.svg`, or `icons/filled/<base>.svg` for `<base>-filled`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);

/** The directory of an installed package, found the way Node looks for it (node_modules upwards). */
function packageDir(name: string): string | null {
  for (const base of require.resolve.paths(name) ?? []) {
    const dir = join(base, name);
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return null;
}

const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export class IconSet {
  readonly names: readonly string[];
  private readonly known: Set<string>;

  constructor(
    names: Iterable<string>,
    private readonly svgDir: string | null,
    readonly source: string,
  ) {
    this.known = new Set([...names].filter((n) => NAME.test(n)));
    this.names = [...this.known].sort();
  }

  has(name: string): boolean {
    return this.known.has(name);
  }

  /** Case-insensitive substring search (spaces count as `-`): exact match, then prefixes, then the rest, A-Z. */
  search(query: string | undefined, limit: number): string[] {
    const q = (query ?? '').trim().toLowerCase().replace(/\s+/g, '-');
    if (q === '') return this.names.slice(0, limit);
    const exact: string[] = [];
    const prefix: string[] = [];
    const rest: string[] = [];
    for (const name of this.names) {
      if (name === q) exact.push(name);
      else if (name.startsWith(q)) prefix.push(name);
      else if (name.includes(q)) rest.push(name);
      if (exact.length + prefix.length >= limit) break;
    }
    return [...exact, ...prefix, ...rest].slice(0, limit);
  }

  /** The SVG file of a known icon, or null (unknown name, or the SVG package is not installed). */
  svgFile(name: string): string | null {
    if (!this.svgDir || !this.has(name)) return null;
    const outline = join(this.svgDir, 'outline', `${name}.svg`);
    if (existsSync(outline)) return outline;
    if (name.endsWith('-filled')) {
      const filled = join(this.svgDir, 'filled', `${name.slice(0, -'-filled'.length)}.svg`);
      if (existsSync(filled)) return filled;
    }
    return null;
  }
}

function svgNames(svgDir: string): string[] {
  const list = (sub: string) =>
    existsSync(join(svgDir, sub))
      ? readdirSync(join(svgDir, sub))
          .filter((f) => f.endsWith('.svg'))
          .map((f) => f.slice(0, -4))
      : [];
  return [...list('outline'), ...list('filled').map((n) => `${n}-filled`)];
}

/** The names `@tabler/icons-react` exports, from its bundled list (a JSON-shaped array literal). */
export function reactIconNames(): string[] | null {
  const dir = packageDir('@tabler/icons-react');
  const file = dir && join(dir, 'dist', 'esm', 'icons-list.mjs');
  if (!file || !existsSync(file)) return null;
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end < start) return null;
  try {
    const list: unknown = JSON.parse(text.slice(start, end + 1));
    return Array.isArray(list) && list.every((n) => typeof n === 'string') ? (list as string[]) : null;
  } catch {
    return null;
  }
}

function loadIconSet(): IconSet {
  const iconsDir = packageDir('@tabler/icons');
  const svgDir = iconsDir && existsSync(join(iconsDir, 'icons')) ? join(iconsDir, 'icons') : null;
  const fromReact = reactIconNames();
  if (fromReact && fromReact.length > 0) return new IconSet(fromReact, svgDir, '@tabler/icons-react');
  if (svgDir) return new IconSet(svgNames(svgDir), svgDir, '@tabler/icons');
  return new IconSet([], null, 'none');
}

let shared: IconSet | null = null;
/** The process-wide icon set (loaded on first use). */
export function iconSet(): IconSet {
  shared ??= loadIconSet();
  return shared;
}

/**
 * Whether `name` is an icon of the bundled set. Without an installed set nothing can be checked,
 * so any well-formed kebab-case name passes (logged at startup by the icon routes).
 */
export function isKnownIcon(name: string): boolean {
  const icons = iconSet();
  return icons.names.length > 0 ? icons.has(name) : NAME.test(name);
}
