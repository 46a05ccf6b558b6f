export { startRedisServer, type TestRedis } from './start-redis-server.js';
