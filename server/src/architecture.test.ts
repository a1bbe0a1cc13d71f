import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The layers and the module map of docs/ARCHITECTURE.md, checked against the imports.
const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : sourceFiles(path);
    return /\.(ts|mjs)$/.test(entry.name) && !/(\.test|^testing)\.ts$/.test(entry.name) ? [path] : [];
  });
}

/** Relative imports of a file (static, dynamic and type-only), resolved to paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((spec) => relative(root, resolve(dirname(file), spec)));
}

/** `modules/apps/service.ts` → `apps`; platform, silicon and the root files are layers of their own. */
const unitOf = (path: string) => {
  const [top, second] = path.split('/');
  return top === 'modules' ? second! : top!.replace(/\.(ts|mjs)$/, '');
};

const files = sourceFiles(root).map((f) => relative(root, f));
const edges = files.flatMap((from) => importsOf(join(root, from)).map((to) => ({ from, to })));

/** Imports between domain modules, `from → to`, each once. */
const graph = new Map<string, Set<string>>();
for (const { from, to } of edges) {
  if (!from.startsWith('modules/') || !to.startsWith('modules/')) continue;
  const [a, b] = [unitOf(from), unitOf(to)];
  if (a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b));
}
const importedEdges = [...graph].flatMap(([from, tos]) => [...tos].map((to) => `${from} → ${to}`)).sort();

/**
 * The module map docs/ARCHITECTURE.md draws: one module a line, `name ─→ dep (note), dep`, in the fenced
 * block after "Domain modules depend on each other".
 */
function drawnModuleMap(): string[] {
  const names = (list: string) =>
    list
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
  const doc = readFileSync(resolve(root, '../../docs/ARCHITECTURE.md'), 'utf8');
  const block = /Domain modules depend on each other[\s\S]*?```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  return block
    .split('\n')
    .filter((line) => line.includes('─→'))
    .flatMap((line) => {
      // `name ─→ dep (note), dep`; `name, name ─→ (nothing)`.
      const [froms, tos] = line.split('─→').map((side) => names(side.replace(/\([^)]*\)/g, '')));
      return froms!.flatMap((from) => tos!.map((to) => `${from} → ${to}`));
    })
    .sort();
}
const drawnEdges = drawnModuleMap();

describe('module map', () => {
  it('platform/ and silicon/ know no domain module and not the composition root', () => {
    const lower = edges.filter(
      ({ from, to }) =>
        (from.startsWith('platform/') || from.startsWith('silicon/')) &&
        !to.startsWith('platform/') &&
        !to.startsWith('silicon/'),
    );
    expect(lower).toEqual([]);
  });

  it('no domain module imports the composition root (app, server, seed, main)', () => {
    const up = edges.filter(
      ({ from, to }) => from.startsWith('modules/') && !/^(modules|platform|silicon)(\/|$)/.test(to),
    );
    expect(up).toEqual([]);
  });

  it('domain modules import each other as docs/ARCHITECTURE.md draws them, without cycles', () => {
    expect(drawnEdges.length).toBeGreaterThan(30);
    const undrawn = importedEdges.filter((edge) => !drawnEdges.includes(edge));
    const unused = drawnEdges.filter((edge) => !importedEdges.includes(edge));
    expect({ undrawn, unused }).toEqual({ undrawn: [], unused: [] });

    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (node: string, path: string[]) => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'open') {
        cycles.push([...path.slice(path.indexOf(node)), node].join(' → '));
        return;
      }
      state.set(node, 'open');
      for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
    // The check sees the real graph: these dependencies exist and point one way.
    expect(graph.get('completion')?.has('conversations')).toBe(true);
    expect(graph.get('conversations')?.has('completion') ?? false).toBe(false);
  });
});

describe('a repository that explains itself', () => {
  const repo = resolve(root, '../..');
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return ['node_modules', 'dist'].includes(entry.name) ? [] : sources(path);
      return /\.(ts|tsx|mjs|js)$/.test(entry.name) ? [path] : [];
    });
  // Rules are cited by the docs/ page or ADR that holds them; documents outside the repository and issue
  // numbers mean nothing to the next reader (docs/reference/README.md).
  const outside = [
    /\b[Ss]pec 0\d/,
    /CONTRACTS/,
    /ARCHITECTURE \(shared\)/,
    /\b[Ii]ssues? #?\d+/,
    /\(#\d+[),]/,
    /\b(the|The) spec\b|\bspec's\b/,
  ];

  it('cites docs/ and ADRs only: no outside document, no issue number', () => {
    const self = fileURLToPath(import.meta.url);
    const found = ['server/src', 'web/src', 'contracts/src', 'e2e', 'bench']
      .flatMap((dir) => sources(join(repo, dir)))
      .filter((file) => file !== self)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            outside.some((pattern) => pattern.test(line))
              ? [`${relative(repo, file)}:${i + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(found).toEqual([]);
  });

  it('cites only docs that exist', () => {
    const cited = new Set(
      ['server/src', 'web/src', 'contracts/src', 'e2e', 'bench']
        .flatMap((dir) => sources(join(repo, dir)))
        .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/docs\/[\w./-]+\.md/g)].map((m) => m[0])),
    );
    expect(cited.size).toBeGreaterThan(10);
    expect([...cited].filter((path) => !existsSync(join(repo, path)))).toEqual([]);
  });
});
