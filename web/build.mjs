// `npm run build`: compiles the engine to WebAssembly (web/crate, target
// wasm32-unknown-unknown) and bundles the workers, the module API and the play page
// into dist/.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, 'dist');
const targetDir = process.env.CARGO_TARGET_DIR || path.join(here, '..', 'target');

// Two builds of the engine: a plain one for every browser, and one with WebAssembly's
// 128-bit SIMD (`simd128`), which the networks' accumulators use and which searches
// half as fast again in chromium (web/README.md, "Measurements"). The worker loads
// the second where the browser validates SIMD code. Each has its own target folder
// so that the two flag sets do not rebuild each other.
const builds = [
  { file: 'sapper.wasm', target: targetDir, rustflags: '' },
  { file: 'sapper-simd.wasm', target: path.join(targetDir, 'web-simd'), rustflags: '-C target-feature=+simd128' },
];
for (const b of builds) {
  execFileSync(
    'cargo',
    // The workspace's `web` profile: release with whole-program LTO and no unwinding.
    ['build', '--profile', 'web', '-p', 'sapper-web', '--target', 'wasm32-unknown-unknown', '--manifest-path', path.join(here, 'crate', 'Cargo.toml')],
    { stdio: 'inherit', env: { ...process.env, CARGO_TARGET_DIR: b.target, RUSTFLAGS: b.rustflags } },
  );
}

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(dist, { recursive: true });
for (const b of builds) {
  fs.copyFileSync(path.join(b.target, 'wasm32-unknown-unknown', 'web', 'sapper_web.wasm'), path.join(dist, b.file));
}

const common = { bundle: true, minify: true, target: 'es2022', logLevel: 'warning', legalComments: 'none' };
// Classic worker scripts: `new Worker('sapper.js')` without {type: 'module'}.
await esbuild.build({ ...common, entryPoints: [path.join(here, 'src', 'sapper-worker.js')], outfile: path.join(dist, 'sapper.js'), format: 'iife' });
await esbuild.build({ ...common, entryPoints: [path.join(here, 'src', 'engine-worker.js')], outfile: path.join(dist, 'sapper-engine.js'), format: 'iife' });
// The module API, unbundled enough to read.
await esbuild.build({ ...common, minify: false, entryPoints: [path.join(here, 'src', 'engine.js')], outfile: path.join(dist, 'engine.js'), format: 'esm' });
fs.copyFileSync(path.join(here, 'src', 'engine.d.ts'), path.join(dist, 'engine.d.ts'));
// The play page.
await esbuild.build({ ...common, entryPoints: [path.join(here, 'page', 'main.js')], outfile: path.join(dist, 'play.js'), format: 'esm' });
const css = ['chessground.base.css', 'chessground.brown.css', 'chessground.cburnett.css']
  .map((f) => fs.readFileSync(path.join(here, 'node_modules', 'chessground', 'assets', f), 'utf8'))
  .concat(fs.readFileSync(path.join(here, 'page', 'style.css'), 'utf8'))
  .join('\n');
fs.writeFileSync(path.join(dist, 'play.css'), css);
fs.copyFileSync(path.join(here, 'page', 'index.html'), path.join(dist, 'index.html'));

for (const f of fs.readdirSync(dist)) console.log(`dist/${f}  ${fs.statSync(path.join(dist, f)).size} bytes`);
