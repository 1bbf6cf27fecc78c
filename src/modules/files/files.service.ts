import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { AuditRecorder } from '../../common/audit/audit-recorder.js';
import type { Principal, Scope } from '../../common/context/principal.js';
import { AppError } from '../../common/errors/app-error.js';
import { Errors } from '../../common/errors/error-catalog.js';
import { newId } from '../../common/ids.js';
import { ListFilters, runList, type ListEnvelope, type ListQuery, type ListSpec } from '../../common/list/index.js';
import type { CreateFileDto } from './dto/create-file.dto.js';
import { CONTENT_TYPES, sniffFileType } from './file-type.js';
import { IMAGE_ONLY_PURPOSES, type GeneratedFilePurpose } from './file-purposes.js';
import type { UploadedPart } from './file-upload.interceptor.js';
import { FileErrors } from './files.errors.js';
import { FilesRepository } from './files.repository.js';
import { toFileResponse, type FileResponse } from './files.responses.js';
import { FileStorage } from './storage/file-storage.js';

export const FILE_LIST: ListSpec = {
  filters: {
    id: ListFilters.uuid,
    purpose: ListFilters.text,
    type: ListFilters.text,
    created_at: ListFilters.timestamp,
  },
  sortable: ['created_at'],
  search: ['id', 'filename'],
};

/**
 * A download up to this size is read whole and checked against its SHA-256 before a byte is sent
 * (a mismatch is a 503 E5310); a larger one is streamed part by part, so a download never holds a
 * large file (a report's CSV) in memory.
 */
const CHECKED_BEFORE_SENDING = 1024 * 1024;

/**
 * The bytes of a file with what a download needs to describe them: in memory for a small file
 * (checked against its SHA-256 before a byte is sent), else a stream that is checked on the way
 * and broken off before its last chunk if the bytes do not match.
 */
export interface FileContents {
  body: Buffer | Readable;
  size: number;
  contentType: string;
  filename: string;
}

@Injectable()
export class FilesService {
  private readonly logger = new Logger(FilesService.name);

  constructor(
    private readonly files: FilesRepository,
    private readonly storage: FileStorage,
    private readonly audit: AuditRecorder,
  ) {}

  /**
   * Stores the bytes, then the row naming them: the type is read from the content's first bytes,
   * never from the name or the declared content type (docs/FILES.md).
   */
  async create(principal: Principal, dto: CreateFileDto, part: UploadedPart | undefined): Promise<FileResponse> {
    if (!part) throw new AppError(FileErrors.E5300);
    const type = sniffFileType(part.buffer);
    if (type === 'executable') throw new AppError(FileErrors.E5303);
    if (type === 'unknown') throw new AppError(FileErrors.E5302);
    if (type === 'pdf' && IMAGE_ONLY_PURPOSES.has(dto.purpose)) {
      throw new AppError(FileErrors.E5302, `A file for "${dto.purpose}" must be a JPEG or PNG image.`);
    }
    const applicationId = principal.application.id;
    const id = newId();
    const stored = await this.storage.put(`${applicationId}/${id}`, part.buffer, CONTENT_TYPES[type]);
    try {
      const file = await this.files.transaction(async (manager) => {
        const inserted = await this.files.insert(
          {
            id,
            application_id: applicationId,
            purpose: dto.purpose,
            filename: cleanFilename(part.originalname, type),
            size: stored.size,
            type,
            sha256: stored.sha256,
            storage_key: stored.key,
          },
          manager,
        );
        await this.audit.record(manager, {
          applicationId,
          action: 'file.created',
          target: { type: 'file', id },
          metadata: { purpose: dto.purpose, size: stored.size, sha256: stored.sha256 },
        });
        return inserted;
      });
      return toFileResponse(file, principal.application.slug);
    } catch (error) {
      await this.storage.delete(stored.key);
      throw error;
    }
  }

  /**
   * Stores a file the service made itself (a report run's CSV), as an upload is stored: the bytes
   * first, streamed as they are produced (at most one storage part in memory), then the row; the
   * row's type is the one given, not sniffed. Answers the file object.
   */
  async storeGenerated(
    scope: Scope,
    file: { purpose: GeneratedFilePurpose; filename: string; type: 'csv'; body: AsyncIterable<Buffer> },
  ): Promise<FileResponse> {
    const applicationId = scope.application.id;
    const id = newId();
    const stored = await this.storage.putStream(`${applicationId}/${id}`, file.body, CONTENT_TYPES[file.type]);
    try {
      const record = await this.files.insert({
        id,
        application_id: applicationId,
        purpose: file.purpose,
        filename: file.filename,
        size: stored.size,
        type: file.type,
        sha256: stored.sha256,
        storage_key: stored.key,
      });
      return toFileResponse(record, scope.application.slug);
    } catch (error) {
      await this.storage.delete(stored.key);
      throw error;
    }
  }

  async retrieve(principal: Principal, id: string): Promise<FileResponse> {
    const file = await this.files.findById(principal.application.id, id);
    if (!file) throw notFound(id);
    return toFileResponse(file, principal.application.slug);
  }

  async contents(principal: Principal, id: string): Promise<FileContents> {
    const { file, stored } = await this.open(principal, id);
    const described = { size: stored.size, contentType: stored.contentType, filename: file.filename };
    if (stored.size > CHECKED_BEFORE_SENDING) {
      // pipeline, not pipe: a store that fails mid-read (a dropped S3 connection) fails the download
      // too instead of leaving it waiting for bytes that never come.
      const body = this.checked(file);
      pipeline(stored.body, body, () => undefined);
      return { ...described, body };
    }
    return { ...described, body: await this.inMemory(file, stored.body) };
  }

  /**
   * The bytes in memory, checked against their SHA-256, for a caller that sends them on whole (a
   * dispute's evidence, an upload of at most 10 MB). Not for a generated file of any size.
   */
  async bytes(principal: Principal, id: string): Promise<FileContents & { body: Buffer }> {
    const { file, stored } = await this.open(principal, id);
    const body = await this.inMemory(file, stored.body);
    return { size: stored.size, contentType: stored.contentType, filename: file.filename, body };
  }

  private async open(principal: Principal, id: string) {
    const file = await this.files.findById(principal.application.id, id);
    if (!file) throw notFound(id);
    const stored = await this.storage.open(file.storage_key);
    if (!stored) throw notFound(id);
    return { file, stored };
  }

  private async inMemory(file: { storage_key: string; sha256: string }, stream: Readable): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (createHash('sha256').update(body).digest('hex') !== file.sha256) throw this.mismatch(file);
    return body;
  }

  /** Passes the bytes on, one chunk behind, and fails instead of passing the last one if their digest is not `file`'s. */
  private checked(file: { storage_key: string; sha256: string }): Transform {
    const hash = createHash('sha256');
    let held: Buffer | null = null;
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        hash.update(chunk);
        const previous = held;
        held = chunk;
        done(null, previous ?? undefined);
      },
      flush: (done) => {
        if (hash.digest('hex') !== file.sha256) return done(this.mismatch(file));
        done(null, held ?? undefined);
      },
    });
  }

  private mismatch(file: { storage_key: string }): AppError {
    this.logger.error(`stored file ${file.storage_key}: its bytes do not match the SHA-256 recorded with them`);
    return new AppError(FileErrors.E5310, 'The stored file does not match its checksum.');
  }

  list(principal: Principal, query: ListQuery): Promise<ListEnvelope<FileResponse>> {
    const slug = principal.application.slug;
    return runList(this.files.query(principal.application.id), FILE_LIST, query, (f) => toFileResponse(f, slug));
  }
}

function notFound(id: string): AppError {
  return new AppError(Errors.E4004, `No file with id "${id}".`);
}

/**
 * The name as sent, without any path and control characters, at most 200 characters; a file sent
 * without a name is called `file.<type>`.
 */
export function cleanFilename(name: string | undefined, type: string): string {
  const base = (name ?? '')
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    .trim();
  return base.length > 0 ? base.slice(0, 200) : `file.${type}`;
}
