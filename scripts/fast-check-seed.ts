// Every package's property tests draw from one seed, so a test run is the same run twice: set FC_SEED to
// try another (fast-check prints the seed and the path of any counterexample it finds).
import fc from 'fast-check';

const seed = Number(process.env.FC_SEED ?? 20261206);
if (!Number.isInteger(seed)) throw new Error(`FC_SEED: expected an integer, got "${process.env.FC_SEED}"`);
fc.configureGlobal({ seed });
