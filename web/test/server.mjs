// A static file server for dist/ on localhost, sending the headers that make the
// page cross-origin isolated (so sapper.js can stop a search through shared
// memory). Paths under /plain/ are served without them, to test the fallback.
//   node test/server.mjs [dir] [port]
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
};

/** Starts the server; resolves with it once listening. */
export function serve(root, port = 0) {
  const server = http.createServer((req, res) => {
    let url = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    server.requests.push(url);
    const plain = url.startsWith('/plain/');
    if (plain) url = url.slice('/plain'.length);
    if (url.endsWith('/')) url += 'index.html';
    const file = path.join(root, path.normalize(url).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(path.resolve(root)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = { 'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' };
    if (!plain) {
      headers['Cross-Origin-Opener-Policy'] = 'same-origin';
      headers['Cross-Origin-Embedder-Policy'] = 'require-corp';
    }
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  /** Every path requested, in order (the tests read which engine file was loaded). */
  server.requests = [];
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const root = path.resolve(process.argv[2] || 'dist');
  const server = await serve(root, Number(process.argv[3] || 8080));
  console.log(`serving ${root} on http://127.0.0.1:${server.address().port}/ (cross-origin isolated; /plain/ without)`);
}
