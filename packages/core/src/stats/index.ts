export { mean } from './mean.js';
