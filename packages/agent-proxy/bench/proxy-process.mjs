// The recording proxy for bench/proxy-latency.mjs, in its own process (as it runs beside a program): it opens
// one episode per benchmark client, and reports its CPU time on request.
import { startRecordingProxy } from '../dist/index.js';

const [baseURL, clients] = [process.argv[2], Number(process.argv[3])];
const proxy = await startRecordingProxy({
  upstream: { model: 'bench-model', baseURL, concurrency: 1024 },
  env: {},
});
// z = 0 episodes: the bodies go up as the program sent them (apart from the model).
const episodes = Array.from({ length: clients }, (_, i) =>
  proxy.openEpisode({ episodeId: `ep-${i}`, condition: 0 }),
);
let recorded = 0;
process.send?.({ url: proxy.url, tokens: episodes.map((e) => e.token) });
process.on('message', async (message) => {
  if (message === 'cpu') {
    // Taking the calls is part of the cost of recording them.
    for (const episode of episodes) recorded += episode.takeCalls().length;
    process.send?.({ cpu: process.cpuUsage(), recorded, stats: proxy.stats() });
  }
  if (message === 'close') {
    await proxy.close();
    process.exit(0);
  }
});
