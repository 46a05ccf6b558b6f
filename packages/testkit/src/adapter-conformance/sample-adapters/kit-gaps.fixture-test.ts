import { describeAdapterConformance } from '../describe-adapter-conformance.js';
import { pickAdapter, solvePick, solvePickShouting } from './tiny-adapters.js';

// One right adapter and three that pass a naive kit and score 0 (or nonsense) in real runs, each breaking
// one check: read by describe-adapter-conformance.test.ts.
describeAdapterConformance(pickAdapter('info.env.won'), { solve: solvePick });
// Without solve: the kit's own episodes must show that every won episode scores 0.
describeAdapterConformance(pickAdapter('trajectory.reward'));
describeAdapterConformance(pickAdapter('the last environment'), { solve: solvePick });
describeAdapterConformance(pickAdapter('info.env.won', 'pick-solved-shouting'), { solve: solvePickShouting });
