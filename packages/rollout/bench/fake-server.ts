// Runs the fake server in its own process so that the benchmark's CPU time is the client's alone.
import { startFakeOpenAI } from '@skillrl/testkit';

const latencyMs = Number(process.argv[2] ?? 100);
const server = await startFakeOpenAI({ latencyMs, record: false, script: ['<action>look</action>'] });
process.stdout.write(`${server.port}\n`);
process.on('SIGTERM', () => {
  server.close().then(() => process.exit(0));
});
