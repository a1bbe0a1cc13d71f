import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import {
  type AllowRule,
  categoryOf,
  isPermitted,
  parseAddress,
  parseAllowList,
  parseAllowRule,
} from './addresses';

const category = (text: string) => {
  const address = parseAddress(text);
  if (!address) throw new Error(`not an address: ${text}`);
  return categoryOf(address);
};

describe('address categories', () => {
  it('reads every IPv4 spelling of loopback as loopback', () => {
    for (const text of [
      '127.0.0.1',
      '127.1',
      '127.0.1',
      '2130706433',
      '0x7f000001',
      '0x7f.0.0.1',
      '0177.0.0.1',
      '127.255.255.254',
    ]) {
      expect(parseAddress(text)?.toString(), text).toMatch(/^127\./);
      expect(category(text), text).toBe('private');
    }
  });

  it('reads IPv6 loopback, mapped, translated and NAT64 forms of private IPv4 as private', () => {
    for (const text of [
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      '::127.0.0.1', // ipaddr.js reads the dotted form as mapped; the address used is the one judged
      '[::ffff:7f00:1]',
      '::ffff:10.1.2.3',
      '::ffff:0:192.168.1.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b:1::10.0.0.1',
      'fc00::1',
      'fd12:3456::1',
    ]) {
      expect(category(text), text).toBe('private');
    }
  });

  it('calls private networks and CGNAT private', () => {
    for (const text of [
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '100.127.255.254',
    ]) {
      expect(category(text), text).toBe('private');
    }
  });

  it('calls link-local, metadata, unspecified, broadcast, multicast, reserved and documentation ranges local', () => {
    for (const text of [
      '169.254.169.254',
      '::ffff:169.254.169.254',
      '64:ff9b::169.254.169.254',
      '0.0.0.0',
      '0',
      '0.1.2.3',
      '::',
      '[::]',
      '255.255.255.255',
      '224.0.0.1',
      '239.255.255.250',
      '240.0.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '198.18.0.1',
      '198.51.100.7',
      '203.0.113.9',
      'fe80::1',
      'ff02::1',
      '2001:db8::1',
      '3fff::1',
      '2001:2::1',
      '2002:7f00:1::1',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '::7f00:1', // IPv4-compatible: outside 2000::/3
      '100::1',
      'fec0::1',
    ]) {
      expect(category(text), text).toBe('local');
    }
  });

  it('calls globally routable unicast public, also through IPv6 forms that embed it', () => {
    for (const text of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '::ffff:8.8.8.8',
      '64:ff9b::8.8.8.8',
      '2606:4700::1111',
      '2a00:1450:4001::1',
    ]) {
      expect(category(text), text).toBe('public');
    }
  });

  it('is not fooled by names that look like numbers', () => {
    expect(parseAddress('localhost')).toBeNull();
    expect(parseAddress('127.0.0.1.nip.io')).toBeNull();
    expect(parseAddress('api.openai.com')).toBeNull();
  });
});

describe('OUTBOUND_ALLOW', () => {
  const rules = (value: string) => {
    const parsed = parseAllowList(value);
    expect(parsed.invalid).toEqual([]);
    return parsed.rules;
  };
  const permits = (list: AllowRule[], host: string, port: number, address: string) =>
    isPermitted(list, host, port, parseAddress(address)!);

  it('parses host:port, host, IPs, bracketed IPv6, CIDRs and the word private', () => {
    expect(
      rules(
        ' 127.0.0.1:11434 , ollama , ollama.internal:8080,10.0.0.0/8, [::1]:8000, fd00::/8, ::1, PRIVATE ,',
      ),
    ).toEqual([
      { kind: 'range', range: [parseAddress('127.0.0.1'), 32], port: 11434 },
      { kind: 'host', host: 'ollama', port: undefined },
      { kind: 'host', host: 'ollama.internal', port: 8080 },
      { kind: 'range', range: [parseAddress('10.0.0.0'), 8] },
      { kind: 'range', range: [parseAddress('::1'), 128], port: 8000 },
      { kind: 'range', range: [parseAddress('fd00::'), 8] },
      { kind: 'range', range: [parseAddress('::1'), 128] },
      { kind: 'private' },
    ]);
  });

  it('names every malformed entry', () => {
    expect(
      parseAllowList('10.0.0.0/33,host:0,host:99999,exa mple,127.1,2130706433,[::1,:80,ok').invalid,
    ).toEqual(['10.0.0.0/33', 'host:0', 'host:99999', 'exa mple', '127.1', '2130706433', '[::1', ':80']);
    expect(parseAllowRule('ok')).toEqual({ kind: 'host', host: 'ok', port: undefined });
  });

  it('stops the start naming the variable when malformed; empty or unset allows nothing', () => {
    expect(() => loadConfig({ OUTBOUND_ALLOW: '10.0.0.0/8,not a host' })).toThrow(ConfigError);
    expect(() => loadConfig({ OUTBOUND_ALLOW: 'not a host' })).toThrow(/OUTBOUND_ALLOW: 'not a host'/);
    expect(loadConfig({}).OUTBOUND_ALLOW).toEqual([]);
    expect(loadConfig({ OUTBOUND_ALLOW: '127.0.0.1:11434' }).OUTBOUND_ALLOW).toHaveLength(1);
  });

  it('always permits public addresses, and nothing else by default', () => {
    expect(permits([], 'api.openai.com', 443, '104.18.7.192')).toBe(true);
    expect(permits([], 'localhost', 80, '127.0.0.1')).toBe(false);
    expect(permits([], 'metadata', 80, '169.254.169.254')).toBe(false);
  });

  it('opens an address on one port or all ports, any spelling of it', () => {
    const list = rules('127.0.0.1:11434,10.1.2.3');
    expect(permits(list, '127.0.0.1', 11434, '127.0.0.1')).toBe(true);
    expect(permits(list, '127.1', 11434, '::ffff:127.0.0.1')).toBe(true);
    expect(permits(list, '127.0.0.1', 11435, '127.0.0.1')).toBe(false);
    expect(permits(list, '127.0.0.2', 11434, '127.0.0.2')).toBe(false);
    expect(permits(list, '10.1.2.3', 1, '10.1.2.3')).toBe(true);
  });

  it('opens a range', () => {
    const list = rules('10.0.0.0/8,fd00::/8,::ffff:192.168.0.0/112');
    expect(permits(list, 'x', 80, '10.200.0.1')).toBe(true);
    expect(permits(list, 'x', 80, '11.0.0.1')).toBe(true); // public anyway
    expect(permits(list, 'x', 80, '172.16.0.1')).toBe(false);
    expect(permits(list, 'x', 80, 'fd00::5')).toBe(true);
    expect(permits(list, 'x', 80, 'fc00::5')).toBe(false);
    expect(permits(list, 'x', 80, '192.168.7.7')).toBe(true);
  });

  it('opens a host name (whatever it resolves to), on its port if one is given', () => {
    const list = rules('ollama:11434,gateway.internal');
    expect(permits(list, 'ollama', 11434, '172.18.0.5')).toBe(true);
    expect(permits(list, 'OLLAMA.', 11434, '172.18.0.5')).toBe(true);
    expect(permits(list, 'ollama', 80, '172.18.0.5')).toBe(false);
    expect(permits(list, 'gateway.internal', 8443, '10.0.0.9')).toBe(true);
    expect(permits(list, 'other', 11434, '172.18.0.5')).toBe(false);
  });

  it('`private` opens loopback, RFC 1918, CGNAT and unique-local, but not link-local or the metadata service', () => {
    const list = rules('private');
    for (const a of ['127.0.0.1', '::1', '10.0.0.1', '192.168.0.1', '100.64.0.1', 'fd00::1']) {
      expect(permits(list, 'x', 80, a), a).toBe(true);
    }
    for (const a of ['169.254.169.254', 'fe80::1', '0.0.0.0', '::', '224.0.0.1']) {
      expect(permits(list, 'x', 80, a), a).toBe(false);
    }
  });
});
