// The index figures of `spatial-bench` (`kdtree.*`, `rtree.*`), timed on the JavaScript
// originals, kdbush 4 and flatbush 4, so that both sides run on one machine in one session.
//
//     node Scripts/reference/kdbush-flatbush-bench.mjs DIR [--runs N] [--json]
//
// DIR holds `kdbush/` and `flatbush/` (and flatbush's `flatqueue/`) as ES-module packages, for
// example a `node_modules` folder where they were installed. The libraries are not part of this
// project. The script checks them against the oracle's serialized sha256 when
// `../shared/oracle` (or `$SPATIAL_ORACLE`) is there, and says so.
//
// It makes the same data and queries as `Sources/spatial-bench/Bench+Indexes.swift` (the same
// LCG streams and seeds), times the same batches, and reports the median, min and max of N runs
// after one warm-up, in ms. A JavaScript query returns a fresh array; that is the call a user of
// the library makes.

import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const libs = args.find((a) => !a.startsWith('--'));
if (!libs) {
    console.error('usage: node Scripts/reference/kdbush-flatbush-bench.mjs DIR [--runs N] [--json]');
    process.exit(2);
}
const runsIndex = args.indexOf('--runs');
const runs = runsIndex >= 0 ? Number(args[runsIndex + 1]) : 7;
const asJSON = args.includes('--json');

async function load(name) {
    const dir = path.resolve(libs, name);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const entry = manifest.module ?? manifest.main ?? 'index.js';
    const module = await import(pathToFileURL(path.join(dir, entry)).href);
    return { library: module.default, version: manifest.version };
}
const { library: KDBush, version: kdbushVersion } = await load('kdbush');
const { library: Flatbush, version: flatbushVersion } = await load('flatbush');

// The bench's LCG (`Synthetic.swift`): 32-bit state, 53-bit doubles from two draws.
class LCG {
    constructor(seed) { this.state = seed >>> 0; }
    next32() {
        this.state = (Math.imul(1664525, this.state) + 1013904223) >>> 0;
        return this.state;
    }
    next53() {
        const hi = this.next32() >>> 5;
        const lo = this.next32() >>> 6;
        return (hi * 67108864 + lo) / 9007199254740992;
    }
}

const results = [];
let sink = 0;
function measure(name, n, body) {
    body();
    const times = [];
    for (let r = 0; r < runs; r++) {
        const start = process.hrtime.bigint();
        body();
        times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const median = times.length % 2 ? times[times.length >> 1]
        : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
    results.push({ name, dataset: 'uniform-1m', n, unit: 'ms', median, min: times[0], max: times[times.length - 1], runs });
    if (!asJSON) {
        console.log(`${name.padEnd(24)} ${String(n).padStart(8)} ${median.toFixed(3).padStart(10)} ` +
            `${times[0].toFixed(3).padStart(10)} ${times[times.length - 1].toFixed(3).padStart(10)} ms`);
    }
}

// Optional fidelity check: the oracle's serialized bytes (same library, same input, same bytes).
const oracle = process.env.SPATIAL_ORACLE ?? path.resolve('../shared/oracle');
const fidelity = [];
if (fs.existsSync(path.join(oracle, 'flatbush-input.json'))) {
    const sha = (buffer) => crypto.createHash('sha256').update(Buffer.from(buffer)).digest('hex');
    const boxesIn = JSON.parse(fs.readFileSync(path.join(oracle, 'flatbush-input.json'), 'utf8'));
    const boxesOut = JSON.parse(fs.readFileSync(path.join(oracle, 'flatbush-output.json'), 'utf8'));
    for (const c of boxesOut.configs) {
        const index = new Flatbush(boxesIn.num_items, c.config.nodeSize);
        const b = boxesIn.boxes;
        for (let i = 0; i < b.length; i += 4) index.add(b[i], b[i + 1], b[i + 2], b[i + 3]);
        index.finish();
        fidelity.push(`flatbush nodeSize ${c.config.nodeSize}: ${sha(index.data) === c.serialized_sha256 ? 'oracle sha256 matches' : 'DIFFERS from the oracle'}`);
    }
    const pointsIn = JSON.parse(fs.readFileSync(path.join(oracle, 'random100k.geojson'), 'utf8'));
    const pointsOut = JSON.parse(fs.readFileSync(path.join(oracle, 'kdbush-output.json'), 'utf8'));
    const types = { Float64Array, Float32Array };
    for (const c of pointsOut.configs) {
        const index = new KDBush(pointsIn.features.length, c.config.nodeSize, types[c.config.arrayType]);
        for (const f of pointsIn.features) index.add(f.geometry.coordinates[0], f.geometry.coordinates[1]);
        index.finish();
        fidelity.push(`kdbush nodeSize ${c.config.nodeSize} ${c.config.arrayType}: ${sha(index.data) === c.serialized_sha256 ? 'oracle sha256 matches' : 'DIFFERS from the oracle'}`);
    }
} else {
    fidelity.push(`no oracle at ${oracle}: the libraries' bytes were not checked`);
}

const n = 1000000;

// k-d tree: `Synthetic.uniform` (seed 42: lng, lat, then two draws for FLOW and ENGINEID).
{
    const rng = new LCG(42);
    const xs = new Float64Array(n), ys = new Float64Array(n);
    for (let i = 0; i < n; i++) {
        xs[i] = -180 + 360 * rng.next53();
        ys[i] = -85 + 170 * rng.next53();
        rng.next32();
        rng.next32();
    }
    const build = () => {
        const index = new KDBush(n, 64, Float64Array);
        for (let i = 0; i < n; i++) index.add(xs[i], ys[i]);
        return index.finish();
    };
    measure('kdtree.build', n, () => { sink += build().numItems; });
    const tree = build();

    const q = new LCG(777);
    const boxes = (fraction) => {
        const w = 360 * Math.sqrt(fraction), h = 170 * Math.sqrt(fraction);
        return Array.from({ length: 1000 }, () => {
            const x = -180 + (360 - w) * q.next53(), y = -85 + (170 - h) * q.next53();
            return [x, y, x + w, y + h];
        });
    };
    for (const [suffix, batch] of [['1pct', boxes(0.01)], ['0.01pct', boxes(0.0001)]]) {
        measure(`kdtree.range-${suffix}`, batch.length, () => {
            for (const b of batch) sink += tree.range(b[0], b[1], b[2], b[3]).length;
        });
    }
    const centres = Array.from({ length: 10000 }, () => [-180 + 360 * q.next53(), -85 + 170 * q.next53()]);
    for (const [name, half] of [['kdtree.range-1deg', 0.5], ['kdtree.range-2deg', 1.0]]) {
        measure(name, 1000, () => {
            for (const p of centres.slice(0, 1000)) sink += tree.range(p[0] - half, p[1] - half, p[0] + half, p[1] + half).length;
        });
    }
    measure('kdtree.within', 1000, () => {
        for (const p of centres.slice(0, 1000)) sink += tree.within(p[0], p[1], 0.5).length;
    });
}

// R-tree: flatbush's benchmark boxes (seed 1234), queries with seed 99.
{
    const rng = new LCG(1234);
    const minX = new Float64Array(n), minY = new Float64Array(n), maxX = new Float64Array(n), maxY = new Float64Array(n);
    for (let i = 0; i < n; i++) {
        minX[i] = rng.next53() * 99;
        minY[i] = rng.next53() * 99;
        maxX[i] = minX[i] + rng.next53();
        maxY[i] = minY[i] + rng.next53();
    }
    const build = () => {
        const index = new Flatbush(n, 16);
        for (let i = 0; i < n; i++) index.add(minX[i], minY[i], maxX[i], maxY[i]);
        index.finish();
        return index;
    };
    measure('rtree.build', n, () => { sink += build().numItems; });
    const tree = build();

    const q = new LCG(99);
    const queries = (fraction) => {
        const side = 100 * Math.sqrt(fraction);
        return Array.from({ length: 1000 }, () => {
            const x = q.next53() * (100 - side), y = q.next53() * (100 - side);
            return [x, y, x + side, y + side];
        });
    };
    for (const [suffix, batch] of [['1pct', queries(0.01)], ['0.01pct', queries(0.0001)]]) {
        measure(`rtree.search-${suffix}`, batch.length, () => {
            for (const b of batch) sink += tree.search(b[0], b[1], b[2], b[3]).length;
        });
    }
    measure('rtree.neighbors', 10000, () => {
        for (let i = 0; i < 10000; i++) sink += tree.neighbors(minX[i], minY[i], 1)[0];
    });
}

const machine = { node: process.version, kdbush: kdbushVersion, flatbush: flatbushVersion };
if (asJSON) {
    console.log(JSON.stringify({ machine, fidelity, results, sink }));
} else {
    console.log(`node ${process.version}, kdbush ${kdbushVersion}, flatbush ${flatbushVersion}; ${fidelity.join('; ')} (checksum ${sink})`);
}
