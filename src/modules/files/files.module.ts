import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AllConfig } from '../../config/app.config.js';
import { RequestContext } from '../../common/context/request-context.js';
import { DatabaseModule } from '../../common/database/database.module.js';
import { FileContent } from './entities/file-content.entity.js';
import { FileRecord } from './entities/file.entity.js';
import { FileUploadInterceptor } from './file-upload.interceptor.js';
import { FilesController } from './files.controller.js';
import { FilesRepository } from './files.repository.js';
import { FilesService } from './files.service.js';
import { FileStorage } from './storage/file-storage.js';
import { PostgresFileStorage } from './storage/postgres-file-storage.repository.js';
import { S3FileStorage } from './storage/s3-file-storage.js';

@Module({
  imports: [...DatabaseModule.forModeEntities([FileRecord, FileContent])],
  controllers: [FilesController],
  providers: [
    FilesRepository,
    FilesService,
    FileUploadInterceptor,
    PostgresFileStorage,
    {
      // FILE_STORAGE: the bound mode's PostgreSQL (the default) or an S3-compatible bucket.
      provide: FileStorage,
      inject: [ConfigService, PostgresFileStorage, RequestContext],
      useFactory: (
        config: ConfigService<AllConfig, true>,
        database: PostgresFileStorage,
        context: RequestContext,
      ): FileStorage => {
        const storage = config.get('app.fileStorage', { infer: true });
        return storage.kind === 's3' ? new S3FileStorage(storage.s3, context, storage.partSize) : database;
      },
    },
  ],
  exports: [FilesService],
})
export class FilesModule {}
