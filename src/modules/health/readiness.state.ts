import { Injectable } from '@nestjs/common';

/**
 * What `/readyz` knows besides the database: whether this process is draining. Shutdown calls
 * `markDraining()` first, so the readiness probe fails and Kubernetes stops routing new requests
 * here while in-flight ones finish.
 */
@Injectable()
export class ReadinessState {
  private draining = false;

  get isDraining(): boolean {
    return this.draining;
  }

  markDraining(): void {
    this.draining = true;
  }
}
