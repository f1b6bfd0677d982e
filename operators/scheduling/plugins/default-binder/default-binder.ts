// DefaultBinder: the Bind plugin that binds the pod through the API (POST pods/binding).
import type { Pod } from '../../../api/core-v1.ts';
import type { BindPlugin, CycleState, FrameworkHandle, PluginFactory } from '../../framework/interface.ts';
import { asStatus, type Status } from '../../framework/status.ts';
import { PLUGIN_NAMES } from '../names.ts';

export class DefaultBinder implements BindPlugin {
  readonly name = PLUGIN_NAMES.DefaultBinder;
  readonly #handle: FrameworkHandle;

  constructor(handle: FrameworkHandle) {
    this.#handle = handle;
  }

  async bind(
    _state: CycleState,
    pod: Pod,
    nodeName: string,
    signal: AbortSignal,
  ): Promise<Status | undefined> {
    try {
      await this.#handle.api.bind(pod, nodeName, signal);
      return undefined;
    } catch (e) {
      return asStatus(e);
    }
  }
}

export const newDefaultBinder: PluginFactory = (_args, handle) => new DefaultBinder(handle);
