import { Injectable } from '@nestjs/common';
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

/** The bytes of a file with what a download needs to describe them. */
export interface FileContents {
  body: Buffer;
  contentType: string;
  filename: string;
}

@Injectable()
export class FilesService {
  constructor(
    private readonly files: FilesRepository,
    private readonly storage: FileStorage,
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
      const file = await this.files.insert({
        id,
        application_id: applicationId,
        purpose: dto.purpose,
        filename: cleanFilename(part.originalname, type),
        size: stored.size,
        type,
        sha256: stored.sha256,
        storage_key: stored.key,
      });
      return toFileResponse(file, principal.application.slug);
    } catch (error) {
      await this.storage.delete(stored.key);
      throw error;
    }
  }

  /**
   * Stores a file the service made itself (a report run's CSV), as an upload is stored: the bytes
   * first, then the row; the row's type is the one given, not sniffed. Answers the file object.
   */
  async storeGenerated(
    scope: Scope,
    file: { purpose: GeneratedFilePurpose; filename: string; type: 'csv'; body: Buffer },
  ): Promise<FileResponse> {
    const applicationId = scope.application.id;
    const id = newId();
    const stored = await this.storage.put(`${applicationId}/${id}`, file.body, CONTENT_TYPES[file.type]);
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
    const file = await this.files.findById(principal.application.id, id);
    if (!file) throw notFound(id);
    const stored = await this.storage.get(file.storage_key);
    if (!stored) throw notFound(id);
    return { body: stored.body, contentType: stored.contentType, filename: file.filename };
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
