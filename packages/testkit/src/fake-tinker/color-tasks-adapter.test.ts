import { describeAdapterConformance } from '../adapter-conformance/describe-adapter-conformance.js';
import { colorTasksAdapter } from './color-tasks-adapter.js';

describeAdapterConformance(colorTasksAdapter, { solve: (task) => [String(task.answer)] });
