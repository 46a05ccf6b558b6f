import { describeAdapterConformance } from '../describe-adapter-conformance.js';
import { brokenAdapter } from './tiny-adapters.js';

describeAdapterConformance(brokenAdapter);
