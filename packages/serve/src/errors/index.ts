export { HostNeedsTokenError } from './host-needs-token-error.js';
export { OutsideDirError } from './outside-dir-error.js';
