/**
 * `npm ci` on the Node we declare must not warn EBADENGINE: every installed package that names the Node
 * versions it supports accepts every version our `engines.node` allows.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8'));

describe('declared engines', () => {
  it('every locked package supports the Node versions package.json declares', () => {
    const declared: string = read('package.json').engines.node;
    const lock: { packages: Record<string, { version?: string; engines?: { node?: string } }> } =
      read('package-lock.json');
    const refusing = Object.entries(lock.packages)
      .filter(([, pkg]) => pkg.engines?.node && !semver.subset(declared, pkg.engines.node))
      .map(([path, pkg]) => `${path}@${pkg.version} wants node ${pkg.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
