/**
 * The serving thread's busy stretches in a CPU profile of a server child (HOSTILE_CPU_PROF of run.ts):
 *   cd bench && node --import tsx hostile-documents/stretches.ts <file>.cpuprofile [min ms, default 20]
 *
 * A stretch is a run of samples none of which is `(idle)`: the thread worked without waiting for I/O, so a
 * request that arrived meanwhile waited at most that long (a stretch may span several callbacks that yield
 * to each other). For each stretch of at least `min ms`: when it began (seconds into the profile), how long
 * it lasted, and its heaviest functions by self and by inclusive time. Stretches are wall time: on a loaded
 * machine they include the time the thread waited for a core.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const profile = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Profile;
const minMs = Number(process.argv[3] ?? 20);
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const label = ({ callFrame: f }: ProfileNode) =>
  `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber}`;
const stackOf = (id: number) => {
  const stack: ProfileNode[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(nodes.get(at)!);
  return stack;
};

// Sample i was taken at times[i]; it stands for the time until the next one.
const times: number[] = [];
let now = profile.startTime;
for (const delta of profile.timeDeltas) {
  now += delta;
  times.push(now);
}

interface Stretch {
  from: number;
  to: number;
  samples: number[];
}
const stretches: Stretch[] = [];
let current: Stretch | null = null;
profile.samples.forEach((id, i) => {
  if (nodes.get(id)!.callFrame.functionName !== '(idle)') {
    current ??= { from: times[i]!, to: times[i]!, samples: [] };
    current.to = times[i + 1] ?? times[i]!;
    current.samples.push(i);
  } else if (current) {
    stretches.push(current);
    current = null;
  }
});
if (current) stretches.push(current);

const top = (times: Map<string, number>) =>
  [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name, ms]) => `    ${ms.toFixed(1).padStart(7)} ms  ${name}`)
    .join('\n');

for (const stretch of stretches) {
  const ms = (stretch.to - stretch.from) / 1000;
  if (ms < minMs) continue;
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const i of stretch.samples) {
    const sampleMs = ((times[i + 1] ?? times[i]!) - times[i]!) / 1000;
    const stack = stackOf(profile.samples[i]!);
    self.set(label(stack[0]!), (self.get(label(stack[0]!)) ?? 0) + sampleMs);
    for (const name of new Set(stack.map(label))) {
      if (!name.startsWith('(root)')) inclusive.set(name, (inclusive.get(name) ?? 0) + sampleMs);
    }
  }
  console.log(`${((stretch.from - profile.startTime) / 1e6).toFixed(2)} s: ${ms.toFixed(1)} ms busy`);
  console.log(`  self\n${top(self)}\n  inclusive\n${top(inclusive)}`);
}
