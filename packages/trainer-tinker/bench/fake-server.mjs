// The fake Tinker of the bench, in a process of its own (so its CPU and the client's are not one queue):
// prints its URL on stdout, and stops when its parent closes stdin.
import { startFakeTinker } from '@skillrl/testkit';

const [workMs, model] = [Number(process.argv[2] ?? 50), process.argv[3] ?? 'bench/tiny'];
const server = await startFakeTinker({
  // A base model of 8 tokens: the fake's own arithmetic stays small next to the work time a request is given,
  // so the table measures the client's pipelining rather than the fake's bigram model.
  baseModels: { [model]: { vocabSize: 8, eosTokenId: 7, corpus: [[1, 2, 3, 4, 5, 6, 7]], features: [1, 2] } },
  record: false,
  futures: { pendingPolls: 0, workMs: { forward_backward: workMs } },
});
process.stdout.write(`${server.url}\n`);
process.stdin.resume();
process.stdin.on('end', () => server.close().then(() => process.exit(0)));
