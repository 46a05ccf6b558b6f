#!/usr/bin/env node
// The `skillrl` CLI of the batteries-included package: @skillrl/cli's, with every built-in part installed.
import { runCli } from '@skillrl/cli';

process.exitCode = await runCli(process.argv.slice(2));
