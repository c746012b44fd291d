/* The kernel: one Post-LN Transformer block, forward only, in plain JavaScript (float64: JS numbers).
 *
 * This is the only place where the browser computes. The test suite holds it equal to the Python of the site
 * (transformer_math.block.forward, tokenizer, derivations, relations), value by value within
 * 1e-12, on the eight example sentences, on seeded random inputs, knobs and weights, and on a second,
 * differently sized model (tests/kernel/). Its weights, vocabulary and constants come from a model value of
 * src at build time as data (load); none is typed in here.
 *
 * Names are the notes': X, W_Q, Q, scores, attn, head_out, Y, residual1, ln1_out, ffn_pre, ffn_h, ...
 * Layouts are BlockTrace's: Q, K, V, head_out [t][head][k]; scores, attn [head][i][j]; the rest [t][d].
 * Loads in a page (window.TransformerKernel) and in Node (module.exports).
 */
(function (root) {
  "use strict";

  var preset = null; // the data load() was given
  var wordIds = null; // word → id
  var whitespace = null; // the characters Python's str.isspace() accepts
  var GELU_CUBIC = NaN; // 0.044715, from transformer_math.ops
  var PE_BASE = NaN; // 10000, from transformer_math.ops

  // ------------------------------------------------------------ data from src

  function load(data) {
    if (!data || typeof data !== "object" || !Array.isArray(data.vocab) || !data.weights) {
      throw new Error("TransformerKernel.load: data must be the preset emitted by transformer_site.panels.kernel_data");
    }
    preset = data;
    wordIds = new Map(data.vocab.map(function (word, id) { return [word, id]; }));
    whitespace = new Set(Array.from(data.whitespace));
    GELU_CUBIC = data.constants.gelu_cubic;
    PE_BASE = data.constants.pe_base;
    return api;
  }

  // A page carries the data in a <template class="tm-kernel-data"> (text, never markup); read it on first use.
  function ensureLoaded() {
    if (preset) return preset;
    var doc = root.document;
    var node = doc && doc.querySelector("template.tm-kernel-data");
    if (!node) throw new Error("TransformerKernel: no preset loaded (call load(data) or embed template.tm-kernel-data)");
    load(JSON.parse(node.content.textContent));
    return preset;
  }

  function copy(value) {
    return Array.isArray(value) ? value.map(copy) : value;
  }

  // The preset's weights with the given knobs set (each knob sets its listed entries to its value).
  function weights(knobs) {
    var p = ensureLoaded();
    var W = {};
    Object.keys(p.weights).forEach(function (name) { W[name] = copy(p.weights[name]); });
    W.n_heads = p.n_heads;
    W.eps = p.eps;
    var given = knobs || {};
    Object.keys(given).forEach(function (name) {
      var knob = p.knobs.find(function (k) { return k.name === name; });
      if (!knob) throw new Error("unknown knob " + JSON.stringify(name) + "; the knobs are " + p.knobs.map(function (k) { return k.name; }).join(", "));
      var value = given[name];
      if (typeof value !== "number" || !isFinite(value)) throw new Error("knob " + name + " must be a finite number, got " + String(value));
      knob.entries.forEach(function (entry) {
        var field = entry[0], index = entry[1];
        if (index.length === 0) W[field] = value;
        else if (index.length === 1) W[field][index[0]] = value;
        else W[field][index[0]][index[1]] = value;
      });
    });
    return W;
  }

  // ------------------------------------------------------------ operations (the notes' §1–§7)

  function zeros(rows, cols) {
    var out = [];
    for (var i = 0; i < rows; i++) out.push(new Array(cols).fill(0));
    return out;
  }

  // (n × m) · (m × p), summing over m in order.
  function matmul(A, B) {
    var n = A.length, m = B.length, p = B[0].length;
    var out = zeros(n, p);
    for (var i = 0; i < n; i++) {
      for (var j = 0; j < p; j++) {
        var sum = 0;
        for (var k = 0; k < m; k++) sum += A[i][k] * B[k][j];
        out[i][j] = sum;
      }
    }
    return out;
  }

  function addRows(A, B) {
    return A.map(function (row, i) { return row.map(function (x, j) { return x + B[i][j]; }); });
  }

  // W_P[t, 2i] = sin(t·ω_i), W_P[t, 2i+1] = cos(t·ω_i), ω_i = base^(−2i/d_model).
  function positionalEncoding(T, dModel) {
    var pe = zeros(T, dModel);
    for (var i = 0; i < dModel / 2; i++) {
      var omega = Math.pow(PE_BASE, (-2 * i) / dModel);
      for (var t = 0; t < T; t++) {
        var angle = t * omega;
        pe[t][2 * i] = Math.sin(angle);
        pe[t][2 * i + 1] = Math.cos(angle);
      }
    }
    return pe;
  }

  // (T, h·d_k) → [t][head][k]
  function splitHeads(M, h) {
    var dK = M[0].length / h;
    return M.map(function (row) {
      var heads = [];
      for (var head = 0; head < h; head++) heads.push(row.slice(head * dK, (head + 1) * dK));
      return heads;
    });
  }

  // [t][head][k] → (T, h·d_k)
  function concatHeads(S) {
    return S.map(function (heads) { return [].concat.apply([], heads); });
  }

  // Stable softmax of one row: subtract the maximum so every exp argument is ≤ 0; −∞ gets weight 0.
  function softmax(row) {
    var max = Math.max.apply(null, row);
    var e = row.map(function (z) { return Math.exp(z - max); });
    var sum = 0;
    for (var j = 0; j < e.length; j++) sum += e[j];
    return e.map(function (x) { return x / sum; });
  }

  // LayerNorm of each row with the biased variance (divide by d); ε inside the square root.
  function layerNorm(M, gamma, beta, eps) {
    return M.map(function (row) {
      var d = row.length;
      var mean = 0;
      for (var k = 0; k < d; k++) mean += row[k];
      mean /= d;
      var variance = 0;
      for (var k2 = 0; k2 < d; k2++) variance += (row[k2] - mean) * (row[k2] - mean);
      variance /= d;
      var root = Math.sqrt(variance + eps);
      return row.map(function (x, j) { return ((x - mean) / root) * gamma[j] + beta[j]; });
    });
  }

  // GELU, tanh form: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
  function gelu(x) {
    return 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + GELU_CUBIC * x ** 3)));
  }

  function addBias(M, b) {
    return M.map(function (row) { return row.map(function (x, j) { return x + b[j]; }); });
  }

  // ------------------------------------------------------------ the block

  var SWITCHES = { scale: true, causal: false, positions: true };

  function switchesOf(options) {
    var out = {};
    Object.keys(SWITCHES).forEach(function (name) {
      var value = options && name in options ? options[name] : SWITCHES[name];
      if (typeof value !== "boolean") throw new Error(name + " must be true or false, got " + String(value));
      out[name] = value;
    });
    return out;
  }

  function checkTokens(tokenIds, vocabSize) {
    if (!Array.isArray(tokenIds) || tokenIds.length === 0) throw new Error("tokenIds must be a non-empty array of ids");
    tokenIds.forEach(function (id, t) {
      if (!Number.isInteger(id) || id < 0 || id >= vocabSize) {
        throw new Error("tokenIds[" + t + "] = " + String(id) + " is outside the vocabulary 0 … " + (vocabSize - 1));
      }
    });
  }

  // One Post-LN block on its input X (T, d_model) → every intermediate from Q to ln2_out. The encoder's forward
  // and each block of the decoder run it; W holds the block's weights (W_Q … ln2_beta), sw the switches.
  function block(X, W, h, eps, sw) {
    var T = X.length;
    var Q = splitHeads(matmul(X, W.W_Q), h); // [t][head][k]
    var K = splitHeads(matmul(X, W.W_K), h);
    var V = splitHeads(matmul(X, W.W_V), h);
    var dK = Q[0][0].length;

    var scores = [], attn = [];
    var head_out = Q.map(function () { return []; });
    for (var head = 0; head < h; head++) {
      var S = [], A = [];
      for (var i = 0; i < T; i++) {
        var row = [];
        for (var j = 0; j < T; j++) {
          var dot = 0;
          for (var k = 0; k < dK; k++) dot += Q[i][head][k] * K[j][head][k];
          if (sw.scale) dot /= Math.sqrt(dK);
          row.push(dot);
        }
        var causal = sw.causal;
        var masked = causal ? row.map(function (s, jj) { return jj > i ? -Infinity : s; }) : row;
        var weightsRow = softmax(masked);
        S.push(row); // scores are kept before the mask, as in src
        A.push(weightsRow);
      }
      scores.push(S);
      attn.push(A);
      for (var t = 0; t < T; t++) {
        var out = [];
        for (var kk = 0; kk < dK; kk++) {
          var sum = 0;
          for (var jj2 = 0; jj2 < T; jj2++) sum += A[t][jj2] * V[jj2][head][kk];
          out.push(sum);
        }
        head_out[t].push(out);
      }
    }
    var concat = concatHeads(head_out); // (T, h·d_k)
    var Y = matmul(concat, W.W_O); // (T, d_model)

    var residual1 = addRows(X, Y);
    var ln1_out = layerNorm(residual1, W.ln1_gamma, W.ln1_beta, eps);
    var ffn_pre = addBias(matmul(ln1_out, W.W1), W.b1); // (T, d_ff)
    var ffn_h = ffn_pre.map(function (r) { return r.map(gelu); });
    var ffn_out = addBias(matmul(ffn_h, W.W2), W.b2); // (T, d_model)
    var residual2 = addRows(ln1_out, ffn_out);
    var ln2_out = layerNorm(residual2, W.ln2_gamma, W.ln2_beta, eps);
    return {
      X: X, Q: Q, K: K, V: V, scores: scores, attn: attn, head_out: head_out, concat: concat, Y: Y,
      residual1: residual1, ln1_out: ln1_out, ffn_pre: ffn_pre, ffn_h: ffn_h, ffn_out: ffn_out,
      residual2: residual2, ln2_out: ln2_out,
    };
  }

  // forward(tokenIds, {knobs | weights, scale, causal, positions}) → every intermediate of BlockTrace.
  function forward(tokenIds, options) {
    var opts = options || {};
    var W = opts.weights || weights(opts.knobs);
    var sw = switchesOf(opts);
    checkTokens(tokenIds, W.W_E.length);
    var T = tokenIds.length, dModel = W.W_E[0].length;

    var X_tok = tokenIds.map(function (id) { return W.W_E[id].slice(); }); // (T, d_model)
    var X_pos = sw.positions ? positionalEncoding(T, dModel) : zeros(T, dModel);
    var trace = block(addRows(X_tok, X_pos), W, W.n_heads, W.eps, sw);
    trace.tokens = tokenIds.slice();
    trace.X_tok = X_tok;
    trace.X_pos = X_pos;
    return trace;
  }

  // ------------------------------------------------------------ tokenizer (mirrors transformer_math.tokenizer)

  // An error of the tokenizer: kind "unknown_word" (word, position = word index), "no_word" (rest, position =
  // character index, counted in code points as Python does) or "length" (count of tokens).
  function TokenizeError(kind, details) {
    var error = new Error(kind + ": " + JSON.stringify(details));
    error.name = "TokenizeError";
    error.kind = kind;
    Object.keys(details).forEach(function (key) { error[key] = details[key]; });
    return error;
  }

  function isSpace(c) {
    return whitespace.has(c);
  }

  function segment(chars) {
    var words = [], pos = 0;
    var longest = Math.max.apply(null, preset.vocab.map(function (w) { return Array.from(w).length; }));
    while (pos < chars.length) {
      var found = false;
      for (var size = Math.min(longest, chars.length - pos); size > 0; size--) {
        var piece = chars.slice(pos, pos + size).join("");
        if (wordIds.has(piece)) {
          words.push(piece);
          pos += size;
          found = true;
          break;
        }
      }
      if (!found) throw TokenizeError("no_word", { position: pos, rest: chars.slice(pos).join("") });
    }
    return words;
  }

  function splitOnSpace(chars) {
    var words = [], word = "";
    chars.forEach(function (c) {
      if (isSpace(c)) {
        if (word) words.push(word);
        word = "";
      } else {
        word += c;
      }
    });
    if (word) words.push(word);
    return words;
  }

  // Text → token ids: spaced words, or unsegmented text split by greedy longest match over the vocabulary.
  function tokenize(text) {
    var p = ensureLoaded();
    if (typeof text !== "string") throw new Error("tokenize: text must be a string, got " + typeof text);
    var chars = Array.from(text);
    var a = 0, b = chars.length;
    while (a < b && isSpace(chars[a])) a++;
    while (b > a && isSpace(chars[b - 1])) b--;
    chars = chars.slice(a, b);
    var words = chars.some(isSpace) ? splitOnSpace(chars) : segment(chars);
    var ids = words.map(function (word, position) {
      if (!wordIds.has(word)) throw TokenizeError("unknown_word", { position: position, word: word });
      return wordIds.get(word);
    });
    if (ids.length !== p.T) throw TokenizeError("length", { count: ids.length, expected: p.T });
    return ids;
  }

  // ------------------------------------------------------------ derivations (mirror transformer_math.derivations.derive:
  // the non-zero terms, the intermediates, the value from them)

  function idx(list) {
    return list.join(",");
  }

  function term(label, factors, value) {
    return { label: label, factors: factors, value: value };
  }

  function factor(label, value) {
    return { label: label, value: value };
  }

  function quantity(name, value) {
    return { name: name, value: value };
  }

  function derivation(stage, index, terms, nZero, intermediates, value, formula) {
    return {
      stage: stage, index: index, cell: stage + "[" + idx(index) + "]", formula: formula || stage,
      terms: terms, n_zero_terms: nZero, intermediates: intermediates, value: value,
    };
  }

  // Σ_m a(m)·b(m): the non-zero products as terms; the value sums every product (zeros included) in order.
  function sumOfProducts(stage, index, n, aLabel, a, bLabel, b, bias) {
    var terms = [], nZero = 0, dot = 0;
    for (var m = 0; m < n; m++) {
      var x = a(m), y = b(m);
      dot += x * y;
      if (x * y === 0) { nZero++; continue; }
      var fa = factor(aLabel(m), x), fb = factor(bLabel(m), y);
      terms.push(term(fa.label + " × " + fb.label, [fa, fb], x * y));
    }
    var inter = [quantity("sum", dot)];
    var value = dot;
    if (bias !== undefined) {
      inter.push(quantity("bias", bias));
      value = dot + bias;
    }
    return derivation(stage, index, terms, nZero, inter, value);
  }

  function addends(stage, index, parts) {
    var terms = [], value = 0;
    parts.forEach(function (part) {
      if (part[1] !== 0) terms.push(term(part[0], [factor(part[0], part[1])], part[1]));
      value += part[1];
    });
    return derivation(stage, index, terms, parts.length - terms.length, [], value);
  }

  function deriveScore(trace, head, i, j, scale) {
    var dK = trace.Q[0][0].length;
    var terms = [], nZero = 0, dot = 0;
    for (var k = 0; k < dK; k++) {
      var q = trace.Q[i][head][k], key = trace.K[j][head][k];
      dot += q * key;
      if (q * key === 0) { nZero++; continue; }
      var fq = factor("Q[" + idx([i, head, k]) + "]", q), fk = factor("K[" + idx([j, head, k]) + "]", key);
      terms.push(term(fq.label + " × " + fk.label, [fq, fk], q * key));
    }
    if (!scale) return derivation("scores", [head, i, j], terms, nZero, [quantity("d_k", dK), quantity("sum", dot)], dot, "scores_unscaled");
    var sqrtDk = Math.sqrt(dK);
    var inter = [quantity("d_k", dK), quantity("sum", dot), quantity("sqrt_d_k", sqrtDk)];
    return derivation("scores", [head, i, j], terms, nZero, inter, dot / sqrtDk);
  }

  function deriveAttn(trace, head, i, j, causal) {
    var full = trace.scores[head][i];
    var row = causal ? full.slice(0, i + 1) : full; // under the mask only keys j' ≤ i enter
    var m = Math.max.apply(null, row);
    var exps = row.map(function (s) { return Math.exp(s - m); });
    var terms = row.map(function (s, jj) {
      var f = factor("scores[" + idx([head, i, jj]) + "]", s);
      return term("exp(scores[" + idx([head, i, jj]) + "] \u2212 m)", [f], exps[jj]);
    });
    var total = 0;
    exps.forEach(function (e) { total += e; });
    var numerator = j < row.length ? exps[j] : 0;
    var inter = [quantity("max", m), quantity("numerator", numerator), quantity("sum", total)];
    return derivation("attn", [head, i, j], terms, full.length - row.length, inter, numerator / total, causal ? "attn_causal" : "attn");
  }

  function deriveLayerNorm(stage, residual, residualName, t, d, gamma, beta, eps) {
    var row = residual[t], n = row.length;
    var terms = [];
    row.forEach(function (x, dd) {
      if (x !== 0) terms.push(term(residualName + "[" + idx([t, dd]) + "]", [factor(residualName + "[" + idx([t, dd]) + "]", x)], x));
    });
    var mu = 0;
    row.forEach(function (x) { mu += x; });
    mu /= n;
    var variance = 0;
    row.forEach(function (x) { variance += (x - mu) * (x - mu); });
    variance /= n;
    var rootVarEps = Math.sqrt(variance + eps);
    var x = row[d];
    var normalised = (x - mu) / rootVarEps;
    var value = normalised * gamma[d] + beta[d];
    var inter = [
      quantity("input", x), quantity("mu", mu), quantity("var", variance), quantity("eps", eps),
      quantity("sqrt_var_eps", rootVarEps), quantity("normalised", normalised), quantity("gamma", gamma[d]),
      quantity("beta", beta[d]),
    ];
    return derivation(stage, [t, d], terms, n - terms.length, inter, value);
  }

  function deriveFfnH(trace, W, t, k) {
    var base = sumOfProducts("ffn_h", [t, k], W.W1.length,
      function (d) { return "ln1_out[" + idx([t, d]) + "]"; }, function (d) { return trace.ln1_out[t][d]; },
      function (d) { return "W1[" + idx([d, k]) + "]"; }, function (d) { return W.W1[d][k]; });
    var dot = base.intermediates[0].value, bias = W.b1[k];
    var pre = dot + bias;
    var inner = Math.sqrt(2 / Math.PI) * (pre + GELU_CUBIC * pre ** 3);
    var value = 0.5 * pre * (1 + Math.tanh(inner)); // the tanh form of GELU, step by step
    var inter = [quantity("sum", dot), quantity("b1", bias), quantity("ffn_pre", pre), quantity("tanh_arg", inner), quantity("gelu", value)];
    return derivation("ffn_h", [t, k], base.terms, base.n_zero_terms, inter, value);
  }

  function deriveXPos(trace, t, d, positions) {
    if (!positions) return derivation("X_pos", [t, d], [], 0, [], 0, "X_pos_off");
    var dModel = trace.X_pos[0].length;
    var omega = Math.pow(PE_BASE, (-2 * Math.floor(d / 2)) / dModel);
    var angle = t * omega;
    return derivation("X_pos", [t, d], [], 0, [quantity("omega", omega), quantity("angle", angle)], d % 2 === 0 ? Math.sin(angle) : Math.cos(angle));
  }

  function projection(name, trace, W, t, head, k) {
    var g = head * trace.Q[0][0].length + k, M = W["W_" + name];
    return sumOfProducts(name, [t, head, k], trace.X[0].length,
      function (d) { return "X[" + idx([t, d]) + "]"; }, function (d) { return trace.X[t][d]; },
      function (d) { return "W_" + name + "[" + idx([d, g]) + "]"; }, function (d) { return M[d][g]; });
  }

  var STAGE_RANK = {
    X_tok: 2, X_pos: 2, X: 2, Q: 3, K: 3, V: 3, scores: 3, attn: 3, head_out: 3, Y: 2, residual1: 2, ln1_out: 2,
    ffn_pre: 2, ffn_h: 2, ffn_out: 2, residual2: 2, ln2_out: 2,
  };

  // derive(trace, weights, stage, index, switches): the derivation of trace[stage][index...].
  function derive(trace, W, stage, index, switches) {
    if (!Object.prototype.hasOwnProperty.call(STAGE_RANK, stage)) throw new Error("unknown stage " + JSON.stringify(stage));
    if (!Array.isArray(index) || index.length !== STAGE_RANK[stage]) throw new Error("index for " + stage + " must have " + STAGE_RANK[stage] + " integers");
    var sw = switchesOf(switches);
    var a = index[0], b = index[1], c = index[2];
    switch (stage) {
      case "X_tok": {
        var id = trace.tokens[a], v = W.W_E[id][b], label = "W_E[" + idx([id, b]) + "]";
        return derivation(stage, index, v !== 0 ? [term(label, [factor(label, v)], v)] : [], v !== 0 ? 0 : 1, [], v);
      }
      case "X_pos": return deriveXPos(trace, a, b, sw.positions);
      case "X": return addends(stage, index, [["X_tok[" + idx(index) + "]", trace.X_tok[a][b]], ["X_pos[" + idx(index) + "]", trace.X_pos[a][b]]]);
      case "Q": case "K": case "V": return projection(stage, trace, W, a, b, c);
      case "scores": return deriveScore(trace, a, b, c, sw.scale);
      case "attn": return deriveAttn(trace, a, b, c, sw.causal);
      case "head_out":
        return sumOfProducts(stage, index, trace.tokens.length,
          function (j) { return "attn[" + idx([b, a, j]) + "]"; }, function (j) { return trace.attn[b][a][j]; },
          function (j) { return "V[" + idx([j, b, c]) + "]"; }, function (j) { return trace.V[j][b][c]; });
      case "Y":
        return sumOfProducts(stage, index, trace.concat[0].length,
          function (g) { return "concat[" + idx([a, g]) + "]"; }, function (g) { return trace.concat[a][g]; },
          function (g) { return "W_O[" + idx([g, b]) + "]"; }, function (g) { return W.W_O[g][b]; });
      case "residual1": return addends(stage, index, [["X[" + idx(index) + "]", trace.X[a][b]], ["Y[" + idx(index) + "]", trace.Y[a][b]]]);
      case "ln1_out": return deriveLayerNorm(stage, trace.residual1, "residual1", a, b, W.ln1_gamma, W.ln1_beta, W.eps);
      case "ffn_pre":
        return sumOfProducts(stage, index, W.W1.length,
          function (d) { return "ln1_out[" + idx([a, d]) + "]"; }, function (d) { return trace.ln1_out[a][d]; },
          function (d) { return "W1[" + idx([d, b]) + "]"; }, function (d) { return W.W1[d][b]; }, W.b1[b]);
      case "ffn_h": return deriveFfnH(trace, W, a, b);
      case "ffn_out":
        return sumOfProducts(stage, index, W.W2.length,
          function (k) { return "ffn_h[" + idx([a, k]) + "]"; }, function (k) { return trace.ffn_h[a][k]; },
          function (k) { return "W2[" + idx([k, b]) + "]"; }, function (k) { return W.W2[k][b]; }, W.b2[b]);
      case "residual2": return addends(stage, index, [["ln1_out[" + idx(index) + "]", trace.ln1_out[a][b]], ["ffn_out[" + idx(index) + "]", trace.ffn_out[a][b]]]);
      default: { // ln2_out: its residual's two parts first, then LayerNorm's intermediates
        var der = deriveLayerNorm(stage, trace.residual2, "residual2", a, b, W.ln2_gamma, W.ln2_beta, W.eps);
        der.intermediates = [quantity("ln1_out", trace.ln1_out[a][b]), quantity("ffn_out", trace.ffn_out[a][b])].concat(der.intermediates);
        return der;
      }
    }
  }

  // ------------------------------------------------------------ what the explorer summarises
  // (mirror transformer_math.relations.intended_relations, relation_outcomes and firing_detectors)

  function argmax(row) {
    var best = 0;
    for (var j = 1; j < row.length; j++) if (row[j] > row[best]) best = j;
    return best;
  }

  // "win" beyond the tie tolerance, "tie" within it, "lose" (mirror relations.verdict_of)
  function verdictOf(margin) {
    var tolerance = ensureLoaded().tie_tolerance;
    if (margin > tolerance) return "win";
    return margin >= -tolerance ? "tie" : "lose";
  }

  function relations(trace) {
    var p = ensureLoaded();
    var categories = trace.tokens.map(function (id) { return p.categories[id]; });
    var out = [];
    categories.forEach(function (ci, i) {
      p.bonds.forEach(function (bond, b) {
        if (ci !== bond.query_dim) return;
        categories.forEach(function (cj, j) {
          if (cj !== bond.key_dim || j === i) return;
          var row = trace.attn[bond.head][i];
          var others = row.slice();
          others[j] = -Infinity;
          var runner = argmax(others);
          var margin = row[j] - row[runner], verdict = verdictOf(margin), tied = [];
          if (verdict === "tie") {
            var top = Math.max.apply(null, row);
            row.forEach(function (w, k) { if (k !== j && w >= top - p.tie_tolerance) tied.push(k); });
          }
          out.push({
            bond: b, head: bond.head, query_pos: i, key_pos: j, weight: row[j], winner_pos: argmax(row),
            runner_up_pos: runner, runner_up_weight: row[runner], margin: margin, verdict: verdict,
            wins: verdict === "win", tied_pos: tied,
          });
        });
      });
    });
    return out;
  }

  function firingDetectors(trace) {
    var threshold = ensureLoaded().firing_threshold;
    var out = [];
    trace.ffn_h.forEach(function (row, t) {
      row.forEach(function (value, k) {
        if (value > threshold) out.push({ t: t, k: k, ffn_h: value });
      });
    });
    return out;
  }

  // ------------------------------------------------------------ the decoder (mirrors transformer_math.decoder_model
  // and generation): two or more causal blocks, block b's ln2_out is block b + 1's X, the output layer tied to
  // the embedding (logits = ln2_out(last) · W_Eᵀ); generation with temperature, top-k, top-p and seeded draws.

  // The weights of one decoder block under the names block() reads.
  function blockWeights(B) {
    return {
      W_Q: B.W_Q, W_K: B.W_K, W_V: B.W_V, W_O: B.W_O, W1: B.W1, b1: B.b1, W2: B.W2, b2: B.b2,
      ln1_gamma: B.gamma1, ln1_beta: B.beta1, ln2_gamma: B.gamma2, ln2_beta: B.beta2,
    };
  }

  var DECODER_SWITCHES = { scale: true, causal: true, positions: true };

  // ids → every intermediate: X_tok, X_pos, blocks[b] (block()'s fields), logits and probs [t][word].
  function decoderForward(D, ids) {
    checkIds(D, ids, "ids");
    var W = D.weights;
    var X_tok = ids.map(function (id) { return W.W_E[id].slice(); });
    var X_pos = ids.map(function (_, t) { return W.W_P[t].slice(); });
    var X = addRows(X_tok, X_pos);
    var blocks = [];
    W.blocks.forEach(function (B) {
      var trace = block(X, blockWeights(B), D.heads, D.eps, DECODER_SWITCHES);
      blocks.push(trace);
      X = trace.ln2_out; // the next block's input
    });
    var logits = X.map(function (row) { // tied: logits[t][w] = Σ_d ln2_out[t][d]·W_E[w][d]
      return W.W_E.map(function (embedding) {
        var sum = 0;
        for (var d = 0; d < row.length; d++) sum += row[d] * embedding[d];
        return sum;
      });
    });
    return { tokens: ids.slice(), X_tok: X_tok, X_pos: X_pos, blocks: blocks, logits: logits, probs: logits.map(softmax) };
  }

  // A DecoderError names the argument that was wrong (argument) and what it was (detail), as src's ValueError does.
  function DecoderError(argument, message, detail) {
    var error = new Error(argument + ": " + message);
    error.name = "DecoderError";
    error.argument = argument;
    Object.keys(detail || {}).forEach(function (key) { error[key] = detail[key]; });
    return error;
  }

  function checkIds(D, ids, name) {
    if (!Array.isArray(ids) || ids.length === 0) throw DecoderError(name, "must hold at least one word", { kind: "empty" });
    if (ids.length > D.nPositions) {
      throw DecoderError(name, "holds " + ids.length + " words, more than the model's " + D.nPositions + " positions", { kind: "length", count: ids.length });
    }
    ids.forEach(function (id, t) {
      if (!Number.isInteger(id) || id < 0 || id >= D.vocab.length) {
        throw DecoderError(name, "[" + t + "] = " + String(id) + " is outside the vocabulary 0 … " + (D.vocab.length - 1), { kind: "id", position: t });
      }
    });
  }

  // Words → ids, <bos> first (src's generation.prompt_ids): words are separated by any white space.
  function promptIds(D, text) {
    if (typeof text !== "string") throw DecoderError("prompt", "must be text", { kind: "type" });
    var words = splitOnSpace(Array.from(text));
    var ids = [D.bos];
    words.forEach(function (word, position) {
      if (!D.wordIds.has(word)) throw DecoderError("prompt", "unknown word " + JSON.stringify(word) + " at position " + (position + 1), { kind: "unknown_word", word: word, position: position + 1 });
      ids.push(D.wordIds.get(word));
    });
    if (words.length === 0) throw DecoderError("prompt", "must hold at least one word", { kind: "empty" });
    checkIds(D, ids, "prompt");
    return ids;
  }

  // mulberry32: u_1, u_2, … in [0, 1) from a 32-bit seed (src's generation.uniforms, the same integer steps).
  function uniforms(seed) {
    var a = seed | 0;
    return function () {
      a = (a + 0x6d2b79f5) | 0;
      var t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function isNumber(x) {
    return typeof x === "number" && !Number.isNaN(x);
  }

  // {steps, temperature, topK, topP, seed} with src's defaults and checks (a DecoderError naming the setting).
  function settingsOf(options) {
    var o = options || {};
    var s = {
      steps: o.steps === undefined ? null : o.steps, temperature: o.temperature === undefined ? 1 : o.temperature,
      topK: o.topK === undefined ? null : o.topK, topP: o.topP === undefined ? 1 : o.topP, seed: o.seed === undefined ? 0 : o.seed,
    };
    if (!isNumber(s.temperature) || !(s.temperature > 0) || !isFinite(s.temperature)) {
      throw DecoderError("temperature", "must be a finite number > 0, got " + String(s.temperature), { kind: "temperature" });
    }
    if (s.topK !== null && (!Number.isInteger(s.topK) || s.topK < 1)) {
      throw DecoderError("topK", "must be an integer ≥ 1 (or null to keep every word), got " + String(s.topK), { kind: "topK" });
    }
    if (!isNumber(s.topP) || !(s.topP > 0 && s.topP <= 1)) {
      throw DecoderError("topP", "must be a number in (0, 1], got " + String(s.topP), { kind: "topP" });
    }
    if (s.steps !== null && (!Number.isInteger(s.steps) || s.steps < 1)) {
      throw DecoderError("steps", "must be an integer ≥ 1 (or null: until <eos> or the last position), got " + String(s.steps), { kind: "steps" });
    }
    if (!Number.isInteger(s.seed) || s.seed < 0 || s.seed > 4294967295) {
      throw DecoderError("seed", "must be an integer in 0 … 2^32 − 1, got " + String(s.seed), { kind: "seed" });
    }
    return s;
  }

  // Ids from the most to the least probable; equal probabilities in id order.
  function byProbability(p) {
    return p.map(function (_, id) { return id; }).sort(function (a, b) { return p[b] - p[a] || a - b; });
  }

  function renormalise(p, keep) {
    var kept = p.map(function (x, id) { return keep[id] ? x : 0; });
    var total = 0;
    kept.forEach(function (x) { total += x; });
    return kept.map(function (x) { return x / total; });
  }

  // Keep the k most probable words and renormalise (null or k ≥ vocabulary: unchanged).
  function topKFilter(p, k) {
    if (k === null || k >= p.length) return p.slice();
    var keep = p.map(function () { return false; });
    byProbability(p).slice(0, k).forEach(function (id) { keep[id] = true; });
    return renormalise(p, keep);
  }

  // Keep the most probable words while the total of the words ahead of each falls short of top_p; renormalise.
  function topPFilter(p, topP) {
    if (topP >= 1) return p.slice();
    var keep = p.map(function () { return false; });
    var before = 0;
    byProbability(p).forEach(function (id) {
      if (before < topP) keep[id] = true;
      before += p[id];
    });
    return renormalise(p, keep);
  }

  // The first id whose cumulative probability exceeds u and whose probability is > 0.
  function drawWord(p, u) {
    var cumulative = 0, last = -1;
    for (var id = 0; id < p.length; id++) {
      cumulative += p[id];
      if (p[id] > 0) {
        if (cumulative > u) return id;
        last = id;
      }
    }
    return last; // rounding left the total at or below u: the last word that can be drawn
  }

  // Temperature, then top-k, then top-p, then the draw with u (src's generation.choose).
  function choose(z, s, u) {
    var tempered = softmax(z.map(function (x) { return x / s.temperature; }));
    var afterTopK = topKFilter(tempered, s.topK);
    var final = topPFilter(afterTopK, s.topP);
    return { logits: z, probs: softmax(z), tempered: tempered, afterTopK: afterTopK, final: final, u: u, word: drawWord(final, u) };
  }

  // Every step of generating from ids: {tokens, steps: [{context, choice, attn: [block][head][j]}], stopped}.
  // Stops after <eos>, after `steps` words, or when the sequence fills the model's positions (src's generate).
  function decoderRun(D, ids, options) {
    var s = settingsOf(options);
    checkIds(D, ids, "prompt");
    var next = uniforms(s.seed);
    var tokens = ids.slice(), made = [], stopped = "positions";
    while (tokens.length <= D.nPositions) {
      var trace = decoderForward(D, tokens), last = tokens.length - 1;
      var c = choose(trace.logits[last], s, next());
      var attn = trace.blocks.map(function (b) { return b.attn.map(function (head) { return head[last]; }); });
      made.push({ context: tokens.slice(), choice: c, attn: attn });
      tokens.push(c.word);
      if (c.word === D.eos) { stopped = "eos"; break; }
      if (s.steps !== null && made.length >= s.steps) { stopped = "steps"; break; }
      if (tokens.length >= D.nPositions) break;
    }
    return { prompt: ids.slice(), tokens: tokens, steps: made, stopped: stopped };
  }

  // A decoder from the data of transformer_site.panels.kernel_data.decoder_data: the API of issue 32 (vocab, heads, eps,
  // weights {W_E, W_P, blocks}, forward(ids), generate(ids, settings) → ids) and what the try-it panel reads.
  function makeDecoder(data) {
    if (!data || !Array.isArray(data.vocab) || !data.weights || !Array.isArray(data.weights.blocks)) {
      throw new Error("TransformerKernel.makeDecoder: data must be a decoder emitted by transformer_site.panels.kernel_data");
    }
    GELU_CUBIC = data.constants.gelu_cubic;
    if (!whitespace) whitespace = new Set(Array.from(data.whitespace));
    var D = {
      vocab: data.vocab.slice(), heads: data.heads, eps: data.eps, weights: data.weights, bos: data.bos, eos: data.eos,
      nPositions: data.weights.W_P.length, wordIds: new Map(data.vocab.map(function (w, id) { return [w, id]; })),
    };
    D.forward = function (ids) { return decoderForward(D, ids); };
    D.run = function (ids, options) { return decoderRun(D, ids, options); };
    D.generate = function (ids, options) { return decoderRun(D, ids, options).tokens; };
    D.promptIds = function (text) { return promptIds(D, text); };
    return D;
  }

  var decoder = null;

  // The page's decoder: the first <template class="tm-decoder-data"> (text, never markup), read on first use.
  function pageDecoder() {
    if (decoder) return decoder;
    var doc = root.document;
    var node = doc && doc.querySelector("template.tm-decoder-data");
    if (!node) throw new Error("TransformerKernel.decoder: this page embeds no decoder (template.tm-decoder-data)");
    decoder = makeDecoder(JSON.parse(node.content.textContent));
    return decoder;
  }

  var api = {
    load: load,
    weights: weights,
    forward: forward,
    tokenize: tokenize,
    derive: derive,
    relations: relations,
    firingDetectors: firingDetectors,
    positionalEncoding: function (T, dModel) { ensureLoaded(); return positionalEncoding(T, dModel); },
    get preset() { return ensureLoaded(); },
    makeDecoder: makeDecoder,
    uniforms: uniforms,
    get decoder() { return pageDecoder(); },
  };

  if (typeof module === "object" && module.exports) module.exports = api;
  root.TransformerKernel = api;
})(typeof window !== "undefined" ? window : globalThis);
