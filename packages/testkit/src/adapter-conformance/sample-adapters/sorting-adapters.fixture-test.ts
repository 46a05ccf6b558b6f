import { describeAdapterConformance } from '../describe-adapter-conformance.js';
import { solveSorting, sortingAdapter } from './tiny-adapters.js';

// The same adapter twice, with a verifier reading the environment's info where real runs record it
// (step.info.env) and where they never do (step.info): only the first may pass.
describeAdapterConformance(sortingAdapter('info.env.sorted'), { solve: solveSorting });
describeAdapterConformance(sortingAdapter('info.sorted'), { solve: solveSorting });
