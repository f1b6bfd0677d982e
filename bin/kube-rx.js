#!/usr/bin/env node
// Entry point of the kube-rx command: runs the TypeScript sources on Node's built-in type stripping.
import { main } from '../src/cli/main.ts';

await main(process.argv.slice(2));
