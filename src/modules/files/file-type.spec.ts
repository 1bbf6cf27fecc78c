import { sniffFileType } from './file-type.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('sniffFileType', () => {
  it('reads PDF, PNG and JPEG from their magic bytes', () => {
    expect(sniffFileType(Buffer.from('%PDF-1.7\n'))).toBe('pdf');
    expect(sniffFileType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('png');
    expect(sniffFileType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('jpg');
  });

  it('calls ELF, PE, Mach-O and shebang scripts executables', () => {
    expect(sniffFileType(bytes(0x7f, 0x45, 0x4c, 0x46, 2))).toBe('executable');
    expect(sniffFileType(Buffer.from('MZ\x90\x00'))).toBe('executable');
    expect(sniffFileType(bytes(0xcf, 0xfa, 0xed, 0xfe))).toBe('executable');
    expect(sniffFileType(Buffer.from('#!/bin/sh\n'))).toBe('executable');
  });

  it('calls anything else unknown, short content included', () => {
    expect(sniffFileType(Buffer.from('GIF89a'))).toBe('unknown');
    expect(sniffFileType(bytes(0x89, 0x50))).toBe('unknown');
    expect(sniffFileType(bytes())).toBe('unknown');
  });
});
