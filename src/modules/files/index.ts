export { FilesModule } from './files.module.js';
export { FilesService, type FileContents } from './files.service.js';
export type { FileResponse } from './files.responses.js';
