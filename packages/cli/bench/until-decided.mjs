// bench:paper's --until-decided loop, apart from the runs it waits on: add one seed at a time (every row of it)
// until every difference it watches is decided (its interval excludes 0), or the cap is reached, where what is
// still inside the noise is reported as a tie.

/** A difference is decided when its interval excludes 0. */
export const isDecided = (d) => d.verdict === 'ahead' || d.verdict === 'behind';

/**
 * Runs the loop. `seeds` is the list already planned (extended in place, so the caller's tables see the seeds
 * added); `differences(seeds)` resolves the watched differences over those seeds once their runs are done;
 * `addSeed(seed)` starts the runs of a new seed; `log(line)` says each step. Returns the seeds, the last
 * differences, and whether all of them were decided.
 */
export async function untilDecided({ seeds, maxSeeds, differences, addSeed, log = () => {} }) {
  let current = await differences(seeds);
  while (!current.every(isDecided) && seeds.length < maxSeeds) {
    const next = Math.max(...seeds) + 1;
    log({ seeds: seeds.length, differences: current, next });
    seeds.push(next);
    addSeed(next);
    current = await differences(seeds);
  }
  return { seeds, differences: current, decided: current.every(isDecided) };
}
