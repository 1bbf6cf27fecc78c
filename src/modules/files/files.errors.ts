import { defineErrors } from '../../common/errors/error-catalog.js';

/** File upload codes (the files range 5300-5349; 5310 and up: the storage, docs/FILES.md). */
export const FileErrors = defineErrors('files', {
  E5300: {
    key: 'file_missing',
    http_status: 400,
    message: 'Send the file as the multipart/form-data part named "file".',
  },
  E5301: {
    key: 'file_too_large',
    http_status: 413,
    message: 'The file is larger than 10 MB (10485760 bytes).',
  },
  E5302: {
    key: 'file_type_unsupported',
    http_status: 400,
    message: 'Only PDF, JPEG and PNG files are accepted (the type is read from the content, not the name).',
  },
  E5303: {
    key: 'file_executable_refused',
    http_status: 400,
    message: 'The content is an executable program; executables are never accepted.',
  },
  E5304: {
    key: 'file_upload_malformed',
    http_status: 400,
    message: 'The multipart/form-data body is malformed or has parts other than "file" and "purpose".',
  },
  E5310: {
    key: 'file_storage_unavailable',
    http_status: 503,
    message: 'The file store (FILE_STORAGE=s3) did not answer or refused the request; nothing was changed. Try again.',
  },
});
