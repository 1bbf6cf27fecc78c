import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthRepository } from './health.repository.js';
import { ReadinessState } from './readiness.state.js';

@Module({ controllers: [HealthController], providers: [HealthRepository, ReadinessState], exports: [ReadinessState] })
export class HealthModule {}
