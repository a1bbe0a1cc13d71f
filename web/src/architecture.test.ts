import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The console's boundaries (docs/ARCHITECTURE.md): a feature is reached only through its index, and no
// feature imports another; shared pieces live in components/ and lib/.
const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const featureOf = (path: string) => /^features\/([^/]+)/.exec(path)?.[1] ?? null;

const imports = sourceFiles(root).flatMap((file) => {
  const from = relative(root, file);
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => ({
    from,
    to: relative(root, resolve(dirname(file), m[1]!)),
  }));
});

describe('console module boundaries', () => {
  it('sees the real import graph', () => {
    expect(imports.some(({ from, to }) => from.startsWith('app/') && to === 'features/apps')).toBe(true);
  });

  it('no feature imports another feature', () => {
    const crossing = imports.filter(
      ({ from, to }) => featureOf(from) && featureOf(to) && featureOf(from) !== featureOf(to),
    );
    expect(crossing).toEqual([]);
  });

  it('outside a feature, only its index is imported', () => {
    const deep = imports.filter(({ from, to }) => {
      const feature = featureOf(to);
      return feature !== null && featureOf(from) !== feature && to !== `features/${feature}`;
    });
    expect(deep).toEqual([]);
  });

  it('shared components and lib import no feature', () => {
    const up = imports.filter(
      ({ from, to }) => /^(components|lib|i18n)\//.test(from) && featureOf(to) !== null,
    );
    expect(up).toEqual([]);
  });
});
