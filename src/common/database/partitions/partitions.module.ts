import { Module } from '@nestjs/common';
import { PartitionMaintenanceJob } from './partition-maintenance.job.js';

/** The partition maintenance job of every partitioned table (partitioned-tables.ts). */
@Module({ providers: [PartitionMaintenanceJob], exports: [PartitionMaintenanceJob] })
export class PartitionsModule {}
