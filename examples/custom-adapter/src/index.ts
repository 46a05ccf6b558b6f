/** @skillrl/example-custom-adapter — a third-party benchmark adapter, the way a user would publish one. */
import { createSortingAdapter } from './create-sorting-adapter.js';

// The adapter factory (the default export is one instance).
export { createSortingAdapter } from './create-sorting-adapter.js';

// An expert's solution of a task (what the conformance kit's `solve` plays).
export { sortingSolution } from './sorting-solution.js';

// The environment, usable on its own.
export { createSortingEnvironment, SORTING_MAX_STEPS } from './sorting-environment.js';

const sorting = createSortingAdapter();
export default sorting;
