// The subcommands of the kube-rx CLI: each component contributes one factory here.
import type { Command } from 'commander';
import type { Pod } from '../../operators/pod-config/types.ts';
import { listerWatcher } from '../../streams/api-client.ts';
import { kubeApiClient } from '../../streams/client-node/kube-api-client.ts';
import { PODS } from '../../streams/resources.ts';
import { apiserverCommand } from '../apiserver/command.ts';
import { controllerManagerCommand } from '../controller-manager/command.ts';
import { kubeletCommand } from '../kubelet/command.ts';
import { podConfigCommand } from '../kubelet/pod-config-command.ts';
import { leaderElectCommand } from '../leader-election/command.ts';
import { upCommand } from '../node-agent/up-command.ts';
import { schedulerCommand } from '../scheduler/command.ts';

/** Factories of the CLI's subcommands, in the order `--help` lists them. */
export const commands: (() => Command)[] = [
  () => upCommand(),
  apiserverCommand,
  () =>
    podConfigCommand({
      apiserverFromKubeconfig: (path) => ({
        listerWatcher: listerWatcher<Pod>(kubeApiClient({ kubeConfig: { from: 'file', path } }), PODS),
      }),
    }),
  () => leaderElectCommand(),
  () => kubeletCommand(),
  () => schedulerCommand(),
  () => controllerManagerCommand(),
];
