import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../test/harness';
import { IconSet, iconSet, isKnownIcon, reactIconNames } from './icon-set';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server?.close();
});

// Independently of icon-set.ts: where @tabler/icons keeps its SVGs (its exports map `./*` to `./icons/*`).
const svgDir = dirname(dirname(createRequire(import.meta.url).resolve('@tabler/icons/outline/robot.svg')));

const search = (q?: string) =>
  server.app.inject({
    method: 'GET',
    url: q === undefined ? '/icons.json' : `/icons.json?q=${encodeURIComponent(q)}`,
  });

describe('GET /icons.json', () => {
  it('is public and finds icons by case-insensitive substring: exact, then prefix, then the rest', async () => {
    const res = await search('robot');
    expect(res.statusCode).toBe(200);
    const data: string[] = res.json().data;
    expect(data[0]).toBe('robot');
    expect(data.length).toBeGreaterThan(1);
    expect(data.length).toBeLessThanOrEqual(20);
    for (const name of data) expect(name).toContain('robot');
    const prefixed = data.filter((n) => n.startsWith('robot'));
    expect(data.slice(0, prefixed.length)).toEqual(prefixed);
    expect((await search('ROBOT')).json()).toEqual(res.json());
  });

  it('answers at most 20 names, and treats spaces as dashes', async () => {
    const many = (await search('a')).json().data;
    expect(many).toHaveLength(20);
    expect((await search('message chatbot')).json().data[0]).toBe('message-chatbot');
    expect((await search('message-chatbot')).json().data[0]).toBe('message-chatbot');
  });

  it('answers the first 20 names A-Z without a query, and [] when nothing matches', async () => {
    const all = (await search()).json().data;
    expect(all).toEqual([...iconSet().names].slice(0, 20));
    expect(all).toEqual([...all].sort());
    expect((await search('zzqqxxnothing')).json()).toEqual({ data: [] });
  });

  it('rejects an overlong query', async () => {
    const res = await search('x'.repeat(101));
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['q']);
  });
});

describe('GET /icons/{name}.svg', () => {
  it('serves the bundled SVG of outline and filled icons', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/icons/robot.svg' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toBe(readFileSync(join(svgDir, 'outline', 'robot.svg'), 'utf8'));
    const filled = await server.app.inject({ method: 'GET', url: '/icons/star-filled.svg' });
    expect(filled.statusCode).toBe(200);
    expect(filled.body).toBe(readFileSync(join(svgDir, 'filled', 'star.svg'), 'utf8'));
  });

  it('answers 404 for unknown names, other extensions and path tricks', async () => {
    for (const url of [
      '/icons/no-such-icon-here.svg',
      '/icons/robot.png',
      '/icons/robot',
      '/icons/..%2F..%2Fpackage.json',
      '/icons/..%2Foutline%2Frobot.svg',
      '/icons/ROBOT.svg',
    ]) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().name, url).toBe('NotFound');
    }
  });
});

describe('icon set', () => {
  it('has the names @tabler/icons-react exports, each with an SVG in @tabler/icons', () => {
    const icons = iconSet();
    expect(icons.source).toBe('@tabler/icons-react');
    const outline = readdirSync(join(svgDir, 'outline')).map((f) => f.replace(/\.svg$/, ''));
    const filled = readdirSync(join(svgDir, 'filled')).map((f) => `${f.replace(/\.svg$/, '')}-filled`);
    expect([...icons.names].sort()).toEqual([...outline, ...filled].sort());
    expect(new Set(reactIconNames())).toEqual(new Set(icons.names));
    expect(isKnownIcon('message-chatbot')).toBe(true);
    expect(isKnownIcon('Message-Chatbot')).toBe(false);
    expect(isKnownIcon('no-such-icon-xyz')).toBe(false);
  });

  it('ranks exact over prefix over substring and drops malformed names', () => {
    const set = new IconSet(['car-robot', 'robot-off', 'robot', 'Bad Name', '../x', 'arobot'], null, 'test');
    expect(set.names).toEqual(['arobot', 'car-robot', 'robot', 'robot-off']);
    expect(set.search('robot', 20)).toEqual(['robot', 'robot-off', 'arobot', 'car-robot']);
    expect(set.search('robot', 2)).toEqual(['robot', 'robot-off']);
    expect(set.svgFile('robot')).toBeNull();
  });
});
