export { TINKER_PUBLIC_DESCRIPTOR_B64 } from './tinker-public-descriptor.js';
