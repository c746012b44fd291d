// Runs the kernel's decoder in Node on the cases a Python test wrote, and prints what it computed as JSON.
//
// Usage: node run_decoder.js KERNEL.js CASES.json
// CASES.json: {decoder: data, forward: [ids, …], generate: [{ids, settings}, …], prompts: [text, …]}
// stdout: {forward: [trace | {error}], generate: [run | {error}], prompts: [{ids} | {error}]}; an error carries the
// argument it names.
"use strict";
const fs = require("fs");
const path = require("path");

const [kernelPath, casesPath] = process.argv.slice(2);
const kernel = require(path.resolve(kernelPath));
const input = JSON.parse(fs.readFileSync(casesPath, "utf8"));
const decoder = kernel.makeDecoder(input.decoder);

function failure(error) {
  return { error: { argument: error.argument || null, kind: error.kind || null, message: String(error.message) } };
}

function attempt(f) {
  try {
    return f();
  } catch (error) {
    return failure(error);
  }
}

const out = {
  forward: (input.forward || []).map((ids) => attempt(() => decoder.forward(ids))),
  generate: (input.generate || []).map((c) => attempt(() => {
    const run = decoder.run(c.ids, c.settings);
    return { tokens: run.tokens, generated: decoder.generate(c.ids, c.settings), steps: run.steps, stopped: run.stopped };
  })),
  prompts: (input.prompts || []).map((text) => attempt(() => ({ ids: decoder.promptIds(text) }))),
};
process.stdout.write(JSON.stringify(out));
