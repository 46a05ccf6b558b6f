#!/usr/bin/env node
// The `skillrl` CLI of the batteries-included package: the orchestrator's, with every built-in part installed.
import { runCli } from '@skillrl/orchestrator';

process.exitCode = await runCli(process.argv.slice(2));
