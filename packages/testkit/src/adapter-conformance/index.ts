export {
  type AdapterConformanceOptions,
  describeAdapterConformance,
} from './describe-adapter-conformance.js';
