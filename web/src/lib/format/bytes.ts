/** Byte sizes as the console prints them everywhere (docs/adr/0028-console-data-layer.md). */

/** Byte-size units, base 1024. */
const BYTE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

/** 0 → '0 Bytes', 1536 → '1.5 KB', 33554432 → '32 MB'; at most `decimals` decimals, trailing zeros dropped. */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const k = 1024;
  const i = Math.min(BYTE_UNITS.length - 1, Math.max(0, Math.floor(Math.log(bytes) / Math.log(k))));
  const value = Number.parseFloat((bytes / k ** i).toFixed(Math.max(0, decimals)));
  return `${value} ${BYTE_UNITS[i]}`;
}
