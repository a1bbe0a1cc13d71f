/**
 * The parts of a zip file (a Word file is one), each inflated under a cap (ADR 0053). The central directory's
 * sizes refuse a bomb before anything is inflated; since those sizes are the file's own word, the cap is also
 * enforced while inflating (zlib's `maxOutputLength` stops the inflater at the cap). jszip, which mammoth
 * reads Word files with, inflates whatever a part holds; Node's zlib does the inflating here.
 */
import { inflateRawSync } from 'node:zlib';

interface ZipEntry {
  name: string;
  method: number;
  packedSize: number;
  size: number;
  headerOffset: number;
}

/** Why a part is refused: the file is no zip, or a part would inflate past a cap. */
export class ZipError extends Error {
  constructor(
    readonly reason: 'unreadable' | 'total' | 'ratio',
    message: string,
  ) {
    super(message);
  }
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const END_SEARCH = 22 + 0xffff;

/** The entries the central directory lists (zip64 is refused: a Word file never needs it). */
function zipEntries(bytes: Buffer): Map<string, ZipEntry> {
  let end = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - END_SEARCH); at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new ZipError('unreadable', 'it is not a zip file');
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const entries = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) {
      throw new ZipError('unreadable', 'its central directory is damaged');
    }
    const nameLength = bytes.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      method: bytes.readUInt16LE(at + 10),
      packedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      headerOffset: bytes.readUInt32LE(at + 42),
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
    };
    entries.set(entry.name, entry);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

interface InflateLimits {
  /** What the parts read may inflate to in all. */
  maxBytes: number;
  /** How many times its packed size a part may inflate to, once past `RATIO_FLOOR`. */
  maxRatio: number;
}

/** Below this a part's ratio is not looked at: small repetitive XML packs far better than 100:1. */
const RATIO_FLOOR = 1 << 20;

/** Inflates parts of one zip file, counting what they inflate to against the caps. */
export class ZipReader {
  private inflated = 0;
  private readonly entries: Map<string, ZipEntry>;

  constructor(
    private readonly bytes: Buffer,
    private readonly limits: InflateLimits,
  ) {
    this.entries = zipEntries(bytes);
  }

  /** The part's bytes, or undefined when the file has no such part. */
  read(name: string): Buffer | undefined {
    const entry = this.entries.get(name);
    if (!entry) return undefined;
    const room = this.limits.maxBytes - this.inflated;
    // Refused on the directory's word before inflating anything.
    if (entry.size > room) throw this.pastTotal();
    const allowed = Math.max(RATIO_FLOOR, entry.packedSize * this.limits.maxRatio);
    if (entry.size > allowed) throw this.pastRatio(name);
    const { bytes } = this;
    const local = entry.headerOffset;
    if (local + 30 > bytes.length || bytes.readUInt32LE(local) !== LOCAL_HEADER) {
      throw new ZipError('unreadable', `its part ${name} is damaged`);
    }
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const packed = bytes.subarray(start, start + entry.packedSize);
    let out: Buffer;
    if (entry.method === 0) out = packed;
    else if (entry.method === 8) {
      // The directory may lie: the inflater itself stops at the smaller cap.
      const cap = Math.min(room, allowed);
      try {
        out = inflateRawSync(packed, { maxOutputLength: cap + 1 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
          throw cap === room ? this.pastTotal() : this.pastRatio(name);
        }
        throw new ZipError('unreadable', `its part ${name} does not inflate: ${(err as Error).message}`);
      }
      if (out.length > cap) throw cap === room ? this.pastTotal() : this.pastRatio(name);
    } else throw new ZipError('unreadable', `its part ${name} is packed in an unknown way (${entry.method})`);
    this.inflated += out.length;
    return out;
  }

  private pastTotal(): ZipError {
    const mib = Math.floor(this.limits.maxBytes / (1 << 20));
    return new ZipError(
      'total',
      `The Word file inflates to more than ${mib} MiB (DOCUMENT_MAX_INFLATED_MB); split it and import the parts.`,
    );
  }

  private pastRatio(name: string): ZipError {
    return new ZipError(
      'ratio',
      `The Word file's part ${name} inflates to more than ${this.limits.maxRatio} times its packed size (DOCUMENT_MAX_INFLATE_RATIO): refused as a zip bomb.`,
    );
  }
}
