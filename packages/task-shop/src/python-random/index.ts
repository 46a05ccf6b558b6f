export * from './python-random.js';
