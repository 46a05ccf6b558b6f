// The floor for bench/proxy-latency.mjs: the cheapest HTTP hop node:http allows (request piped up on a
// keep-alive agent, response piped back, nothing parsed or recorded), to tell the cost of the extra hop
// from the cost of what the recording proxy does on it.
import http from 'node:http';

const target = new URL(process.argv[2]);
const agent = new http.Agent({
  keepAlive: true,
  maxSockets: Number.POSITIVE_INFINITY,
  maxFreeSockets: 1024,
  scheduling: 'lifo',
});
const server = http.createServer((req, res) => {
  const up = http.request(
    {
      hostname: target.hostname,
      port: target.port,
      path: req.url,
      method: req.method,
      headers: { ...req.headers, host: target.host, authorization: 'Bearer EMPTY' },
      agent,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  up.on('error', () => res.destroy());
  req.pipe(up);
});
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
  process.send?.({ url: `http://127.0.0.1:${server.address().port}/v1` });
});
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'close') process.exit(0);
});
