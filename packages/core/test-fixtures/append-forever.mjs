// Child process for the run-store crash test: appends large fixed-size records (and a snapshot every other
// record) until it is killed. Uses the built package, as a user would. A third argument turns on segment
// rotation at that many bytes (closed segments gzip-compressed), so kills also land inside rotations.
import { openRunStore } from '../dist/index.js';

const [dir, recordBytes, segmentBytes] = process.argv.slice(2);
const store = openRunStore(dir, {
  onWarning: () => {},
  ...(segmentBytes ? { segmentBytes: Number(segmentBytes) } : {}),
});
let seq = store.count('rollouts');
// Every line has the same length, so the parent can tell from the file size that a write is under way.
const payload = 'abcdefghijklmnopqrstuvwxyz0123456789'
  .repeat(Math.ceil(Number(recordBytes) / 36))
  .slice(0, Number(recordBytes));
process.send?.('ready');
for (;;) {
  store.append('rollouts', { seq: String(seq).padStart(8, '0'), payload });
  store.append('events', { type: 'rollout', seq });
  seq++;
  if (seq % 2 === 0) store.writeSnapshot('progress', { seq, note: 'x'.repeat(100_000) });
}
