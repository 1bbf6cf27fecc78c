/** The types a file may have, named as Stripe names them; `csv` only for files the service makes (reports). */
export type FileType = 'pdf' | 'jpg' | 'png' | 'csv';

export const CONTENT_TYPES: Record<FileType, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  png: 'image/png',
  csv: 'text/csv; charset=utf-8',
};

const ACCEPTED: Array<[FileType, number[]]> = [
  ['pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]], // %PDF-
  ['png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['jpg', [0xff, 0xd8, 0xff]],
];

/** Executable formats, refused with their own code: ELF, PE/DOS (MZ), Mach-O (both byte orders, fat), shebang scripts. */
const EXECUTABLES: number[][] = [
  [0x7f, 0x45, 0x4c, 0x46],
  [0x4d, 0x5a],
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe],
  [0x23, 0x21],
];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);
}

/**
 * What the content is, from its first bytes only (never the name or the declared type):
 * an accepted type, `executable`, or `unknown`.
 */
export function sniffFileType(bytes: Uint8Array): FileType | 'executable' | 'unknown' {
  for (const [type, magic] of ACCEPTED) if (startsWith(bytes, magic)) return type;
  if (EXECUTABLES.some((magic) => startsWith(bytes, magic))) return 'executable';
  return 'unknown';
}
