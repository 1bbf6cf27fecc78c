import { BASE_PATH } from '../../common/http/decorators.js';
import type { FileRecord } from './entities/file.entity.js';

export function toFileResponse(f: FileRecord, slug: string) {
  return {
    id: f.id,
    object: 'file' as const,
    purpose: f.purpose,
    filename: f.filename,
    size: f.size,
    type: f.type,
    created: f.created_at.toISOString(),
    livemode: f.livemode,
    url: `/${BASE_PATH.replace(':app', encodeURIComponent(slug))}/files/${f.id}/contents`,
  };
}

export type FileResponse = ReturnType<typeof toFileResponse>;
