import { Module } from '@nestjs/common';
import { ErrorDocsController } from './error-docs.controller.js';
import { ErrorsController } from './errors.controller.js';

@Module({ controllers: [ErrorsController, ErrorDocsController] })
export class ErrorsModule {}
