// The upstream for bench/proxy-latency.mjs, in its own process: the testkit's fake OpenAI server answering
// at once (latencyMs 0, nothing recorded), so that what is measured is HTTP and the proxy, not a model.
import { startFakeOpenAI } from '@skillrl/testkit';

const reply =
  'I will go to the kitchen first, open the fridge, take the milk and put it on the table; then I will check ' +
  'the cabinet for a clean glass, pour the milk into it and bring the glass to the living room.';
const latencyMs = Number(process.argv[2] ?? 0);
const server = await startFakeOpenAI({ latencyMs, record: false, seed: 42, script: [reply] });
process.send?.({ baseURL: server.baseURL });
process.on('message', async (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'close') {
    await server.close();
    process.exit(0);
  }
});
