// The subcommands of the kube-rx CLI: each component contributes one factory here.
import type { Command } from 'commander';
import { apiserverCommand } from '../apiserver/command.ts';
import { podConfigCommand } from '../kubelet/pod-config-command.ts';

/** Factories of the CLI's subcommands, in the order `--help` lists them. */
export const commands: (() => Command)[] = [apiserverCommand, () => podConfigCommand()];
