/**
 * CPU profiles (HTTP_PROFILE of run.ts) broken down by area, together:
 *   cd bench && node --import tsx http/areas.ts <file>.*.cpuprofile
 *
 * Self time: each sample goes to the area of the frame it was taken in (by the script it comes from).
 * Inclusive time: each sample goes to every area one of its frames belongs to (by function and script), once.
 * Idle samples and the profiler's own work are left out; the shares are of the busy samples.
 */
import { readFileSync } from 'node:fs';

interface Frame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time's areas, first match wins: by the script, else by V8's pseudo-frames. */
const selfAreas: [string, (f: Frame) => boolean][] = [
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
  ['zod', (f) => /node_modules\/zod\//.test(f.url)],
  [
    'AI SDK: provider packages, provider-utils, SSE parser',
    (f) => /node_modules\/(@ai-sdk|eventsource-parser|ai)\//.test(f.url),
  ],
  ['undici (fetch)', (f) => /undici/.test(f.url)],
  ['web streams', (f) => /internal\/webstreams/.test(f.url)],
  ['socket.io / engine.io', (f) => /node_modules\/(socket\.io|engine\.io|ws)/.test(f.url)],
  ['pg driver', (f) => /node_modules\/(pg|pg-protocol|pg-pool|pg-types)\//.test(f.url)],
  ['drizzle', (f) => /node_modules\/drizzle-orm\//.test(f.url)],
  [
    'fastify and its plugins',
    (f) =>
      /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|fast-json-stringify|secure-json-parse|fastify-type-provider-zod)/.test(
        f.url,
      ),
  ],
  ['pino (logs)', (f) => /node_modules\/(pino|thread-stream|sonic-boom)/.test(f.url)],
  [
    'node http, net, streams',
    (f) => /^node:(_http|http|net|internal\/(streams|stream_base|http|net))/.test(f.url),
  ],
  ['llmor code', (f) => /\/(server|contracts)\/src\//.test(f.url)],
  ['other node_modules', (f) => /node_modules/.test(f.url)],
  ['other node internals', (f) => f.url.startsWith('node:')],
  ['V8 and native (no script)', () => true],
];

/** Inclusive areas: a sample counts once for an area if any frame of its stack matches. */
const inclusiveAreas: [string, (f: Frame) => boolean][] = [
  ['HTTP request handling (fastify route + hooks)', (f) => /node_modules\/fastify\//.test(f.url)],
  ['signature check', (f) => /verifyCached|verifySignature/.test(f.functionName)],
  [
    'request validation (zod through fastify)',
    (f) =>
      /validatorCompiler|validate/.test(f.functionName) &&
      /fastify-type-provider-zod|platform\/http/.test(f.url),
  ],
  [
    'response serialization',
    (f) => /serializerCompiler|serialize/.test(f.functionName) && /fastify|platform\/http/.test(f.url),
  ],
  ['SQL (drizzle + pg)', (f) => /node_modules\/(drizzle-orm|pg|pg-protocol|pg-pool)\//.test(f.url)],
  ['provider request: doStream (build + send)', (f) => f.functionName === 'doStream'],
  ['outbound guard fetch', (f) => /platform\/outbound\/(guard|answer)/.test(f.url)],
  ['undici', (f) => /undici/.test(f.url)],
  [
    'SSE parse + chunk validation (AI SDK)',
    (f) => /eventsource-parser|provider-utils/.test(f.url) && !/postJsonToApi|postToApi/.test(f.functionName),
  ],
  ['zod (all)', (f) => /node_modules\/zod\//.test(f.url)],
  ['SdkChatModel.stream', (f) => /modules\/models\/providers\/sdk/.test(f.url)],
  ['completion engine (completion/)', (f) => /modules\/completion\//.test(f.url)],
  [
    'relay (hub + socket.io server)',
    (f) => /platform\/relay|node_modules\/socket\.io(-adapter)?\//.test(f.url),
  ],
  ['web streams', (f) => /internal\/webstreams/.test(f.url)],
  [
    'socket writes (writev/writeGeneric)',
    (f) => /^(writev|writeGeneric|writevGeneric|_writeGeneric)$/.test(f.functionName),
  ],
  ['garbage collection', (f) => f.functionName === '(garbage collector)'],
];

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
let busy = 0;
for (const file of process.argv.slice(2)) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  /** The profiler's own work (starting and stopping it) is not the server's. */
  const profiledBy = (id: number) => {
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n))
      if (byId.get(n)!.callFrame.url === 'node:inspector') return true;
    return false;
  };
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)' || profiledBy(id)) return;
    busy += dt;
    const area = selfAreas.find(([, test]) => test(node.callFrame))![0];
    self.set(area, (self.get(area) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const frame = byId.get(n)!.callFrame;
      for (const [label, test] of inclusiveAreas) if (test(frame)) seen.add(label);
    }
    for (const label of seen) inclusive.set(label, (inclusive.get(label) ?? 0) + dt);
  });
}

const rows = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `| ${k} | ${((100 * v) / busy).toFixed(1)} % | ${(v / 1000).toFixed(0)} ms |`);
console.log(
  `busy ${(busy / 1000).toFixed(0)} ms\n\n| self, by area | share of busy | ms |\n| --- | --- | --- |`,
);
console.log(rows(self).join('\n'));
console.log('\n| inclusive, by area | share of busy | ms |\n| --- | --- | --- |');
console.log(rows(inclusive).join('\n'));
