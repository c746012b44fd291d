// Runs the kernel in Node on the cases a Python test wrote, and prints what it computed as JSON.
//
// Usage: node run_kernel.js KERNEL.js CASES.json  (stdout: {"cases": [...], "texts": [...], "pe": [...]})
// Each case: {tokens, knobs | weights, switches, cells: [[stage, index], ...]} → {trace, derivations} or {error}.
// Each text → {ids} or {error: {kind, position, word, rest, count}}.
"use strict";
const fs = require("fs");
const path = require("path");

const [kernelPath, casesPath] = process.argv.slice(2);
const kernel = require(path.resolve(kernelPath));
const input = JSON.parse(fs.readFileSync(casesPath, "utf8"));
kernel.load(input.preset);

const NAMES = ["X_tok", "X_pos", "X", "Q", "K", "V", "scores", "attn", "head_out", "concat", "Y", "residual1",
  "ln1_out", "ffn_pre", "ffn_h", "ffn_out", "residual2", "ln2_out"];

function runCase(c) {
  try {
    const weights = c.weights ? Object.assign({}, c.weights) : kernel.weights(c.knobs || {});
    const options = Object.assign({ weights }, c.switches);
    const trace = kernel.forward(c.tokens, options);
    const picked = {};
    NAMES.forEach((name) => { picked[name] = trace[name]; });
    const derivations = (c.cells || []).map(([stage, index]) => kernel.derive(trace, weights, stage, index, c.switches));
    // The relations and detectors are the preset's (its bonds and detectors): not asked of random weights.
    const summary = c.weights ? {} : { relations: kernel.relations(trace), detectors: kernel.firingDetectors(trace) };
    return Object.assign({ trace: picked, derivations }, summary);
  } catch (error) {
    return { error: String(error && error.message) };
  }
}

function runText(text) {
  try {
    return { ids: kernel.tokenize(text) };
  } catch (error) {
    if (error.name !== "TokenizeError") return { error: { kind: "other", message: String(error.message) } };
    const { kind, position, word, rest, count } = error;
    return { error: { kind, position, word, rest, count } };
  }
}

const out = {
  cases: (input.cases || []).map(runCase),
  texts: (input.texts || []).map(runText),
  pe: (input.pe || []).map(([T, d]) => kernel.positionalEncoding(T, d)),
};
process.stdout.write(JSON.stringify(out));
