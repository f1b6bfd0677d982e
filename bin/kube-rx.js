#!/usr/bin/env node
// Entry point of the kube-rx command: in a checkout it runs the TypeScript sources on Node's built-in type
// stripping; installed under node_modules (where Node does not strip types) it runs the built dist/.
const installed = import.meta.url.includes('/node_modules/');
const { main } = installed ? await import('../dist/src/cli/main.js') : await import('../src/cli/main.ts');
await main(process.argv.slice(2));
