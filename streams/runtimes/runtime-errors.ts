// Errors the container runtimes reject with: unknown ids, wrong states, and calls after close().
import { KubeRxError } from '../../operators/errors.ts';

/** An unknown sandbox or container id (code `KUBE_RX_NOT_FOUND`, as the port's contract says). */
export class RuntimeNotFoundError extends KubeRxError {
  readonly kind: 'sandbox' | 'container';
  readonly id: string;
  constructor(kind: 'sandbox' | 'container', id: string) {
    super('KUBE_RX_NOT_FOUND', `${kind} ${JSON.stringify(id)} not found`);
    this.kind = kind;
    this.id = id;
  }
}

/** A call the object's state forbids, e.g. starting a container twice or exec in an exited one. */
export class RuntimeStateError extends KubeRxError {
  constructor(message: string) {
    super('KUBE_RX_INVALID_STATE', message);
  }
}

/** Any call after `close()`. */
export class RuntimeClosedError extends KubeRxError {
  constructor(runtime: string) {
    super('KUBE_RX_RUNTIME_CLOSED', `the ${runtime} runtime is closed`);
  }
}
