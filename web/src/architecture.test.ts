import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
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

// web/package.json lists the modules with side effects; the build drops any other module none of whose
// exports is used, so a barrel does not pull a feature's every page into the chunk of one (docs/adr/0017-first-screen-budget.md).
// A module that runs code when it loads (a call, an `if` at the top level) must be listed, or it would
// silently vanish from the build.
describe('side effects declared for the build', () => {
  const sideEffects: string[] = JSON.parse(readFileSync(join(root, '../package.json'), 'utf8')).sideEffects;
  const globToRegExp = (glob: string) => {
    const body = glob
      .replace(/^\.\//, '')
      .split('**/')
      .map((part) =>
        part
          .split('*')
          .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('(?:.*/)?');
    return new RegExp(glob.includes('/') ? `^${body}$` : `(?:^|/)${body}$`);
  };
  const listed = sideEffects.map(globToRegExp);
  const runsCode = (statement: ts.Statement) =>
    !(
      ts.isImportDeclaration(statement) ||
      ts.isExportDeclaration(statement) ||
      ts.isExportAssignment(statement) ||
      ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isEnumDeclaration(statement) ||
      ts.isModuleDeclaration(statement) ||
      ts.isVariableStatement(statement) ||
      ts.isEmptyStatement(statement)
    );

  it('lists every module that runs code at its top level', () => {
    const unlisted = sourceFiles(root)
      .filter((file) => !/\.(test|d)\.tsx?$/.test(file))
      .map((file) => relative(join(root, '..'), file))
      .filter((path) => {
        const text = readFileSync(join(root, '..', path), 'utf8');
        const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
        return source.statements.some(runsCode) && !listed.some((glob) => glob.test(path));
      });
    expect(unlisted).toEqual([]);
  });

  it('sees the modules that do', () => {
    for (const path of ['src/main.tsx', 'src/features/apps/i18n.ts', 'src/app/Toasts.tsx']) {
      expect(listed.some((glob) => glob.test(path))).toBe(true);
    }
    expect(listed.some((glob) => glob.test('src/features/apps/index.ts'))).toBe(false);
  });
});
