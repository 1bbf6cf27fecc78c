import { Module } from '@nestjs/common';
import { DatabaseModule } from '../../common/database/database.module.js';
import { FileContent } from './entities/file-content.entity.js';
import { FileRecord } from './entities/file.entity.js';
import { FileUploadInterceptor } from './file-upload.interceptor.js';
import { FilesController } from './files.controller.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';
import { FileStorage } from './storage/file-storage.js';
import { PostgresFileStorage } from './storage/postgres-file-storage.repository.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([FileRecord, FileContent])],
  controllers: [FilesController],
  providers: [
    FilesRepository,
    FilesService,
    FileUploadInterceptor,
    { provide: FileStorage, useClass: PostgresFileStorage },
  ],
  exports: [FilesService],
})
export class FilesModule {}
