/* Interactive panels of the site ("動かしてみる").
 *
 * The scaled dot-product panel selects one of the states Python computed and embedded (rounded to what is
 * shown), and the softmax gradient's size the build measured for that d_k and scale. The positional-encoding panel and the sentence explorer compute through the kernel
 * (docs/assets/javascripts/kernel.js), the one piece of JavaScript the tests hold equal to src; this file only
 * reads controls, keeps the state in the URL, and draws. Everything a reader can type or put in the URL is
 * data: it reaches the page through textContent and attributes, never as markup. A panel starts when it comes
 * near the reader's view; its data is fetched then, from the files the build wrote for it.
 */
(function () {
  "use strict";

  var MINUS = "\u2212";

  // Display form of a number: U+2212 for negatives, no negative zero.
  function fmt(value, decimals) {
    var text = Math.abs(value).toFixed(decimals);
    return value < 0 && Number(text) !== 0 ? MINUS + text : text;
  }

  // A difference: always signed, unless it rounds to zero.
  function fmtSigned(value, decimals) {
    var text = fmt(value, decimals);
    return text.charAt(0) === MINUS || Number(text) === 0 ? text : "+" + text;
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        if (attrs[key] !== null && attrs[key] !== undefined) node.setAttribute(key, attrs[key]);
      });
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function setText(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  function role(root, name) {
    return root.querySelector('[data-role="' + name + '"]');
  }

  function readData(root, css) {
    // A <template>, filled from its file before the panel starts (src/transformer_site/panels/html.py).
    return JSON.parse(root.querySelector("template." + (css || "tm-panel-data")).content.textContent);
  }

  // Formulas go through the site's one KaTeX renderer (docs/assets/javascripts/katex-init.js); without it the
  // TeX source stays readable as text.
  function typeset(node) {
    if (typeof window.tmTypeset === "function") window.tmTypeset(node);
  }

  function tex(source) {
    return el("span", { class: "arithmatex" }, "\\(" + source + "\\)");
  }

  // A heat-table cell coloured as transformer_figures.heat_table colours it: the same lookup table of the colour
  // map (palette from src), entry min(floor(x·N), N − 1) for x = (value − vmin)/(vmax − vmin) clipped to [0, 1].
  function paint(cell, value, palette, vmin, vmax) {
    var n = palette.colours.length;
    var x = Math.min(1, Math.max(0, (value - vmin) / (vmax - vmin)));
    var i = Math.min(n - 1, Math.floor(x * n));
    if (cell.getAttribute("data-colour") !== String(i)) { // repaint only a changed colour
      cell.setAttribute("data-colour", String(i));
      cell.style.background = palette.colours[i];
      cell.classList.toggle("w", palette.white_ink[i]);
    }
  }

  // ------------------------------------------------------------ scaled dot-product panel

  function initSdpa(root) {
    var data = readData(root);
    var dk = role(root, "dk");
    var scale = role(root, "scale");
    var causal = role(root, "causal");
    var table = role(root, "heatmap");
    var n = data.n;

    var head = el("thead");
    var hr = el("tr");
    hr.appendChild(el("td", { class: "k" }, "q ＼ k"));
    for (var j = 0; j < n; j++) hr.appendChild(el("th", { scope: "col" }, "k" + j));
    head.appendChild(hr);
    table.appendChild(head);
    var body = el("tbody");
    var cells = [];
    for (var i = 0; i < n; i++) {
      var tr = el("tr");
      tr.appendChild(el("th", { scope: "row" }, "q" + i));
      var row = [];
      for (var jj = 0; jj < n; jj++) {
        var td = el("td");
        tr.appendChild(td);
        row.push(td);
      }
      cells.push(row);
      body.appendChild(tr);
    }
    table.appendChild(body);

    function render() {
      var d = Number(dk.value);
      var state = data.states[String(d)][String(scale.checked)][String(causal.checked)];
      role(root, "dk-out").textContent = String(d);
      state.weights.forEach(function (weights, r) {
        weights.forEach(function (w, c) {
          var cell = cells[r][c];
          cell.textContent = fmt(w, data.cell_decimals);
          paint(cell, w, data.palette, 0, 1);
          cell.classList.toggle("tm-masked", causal.checked && c > r);
        });
      });
      role(root, "std").textContent = fmt(state.std, data.stat_decimals);
      role(root, "row-max").textContent = fmt(state.row_max, data.stat_decimals);
      var gradient = data.gradient[String(d)][String(scale.checked)]; // the build's sweep: selected, not computed
      role(root, "jacobian").textContent = fmt(gradient.jacobian, data.stat_decimals);
      role(root, "d-scores").textContent = fmt(gradient.d_scores, data.stat_decimals);
    }

    [dk, scale, causal].forEach(function (control) {
      control.addEventListener("input", render);
      control.addEventListener("change", render);
    });
    render();
  }

  // ------------------------------------------------------------ positional-encoding panel

  function initPe(root) {
    var data = readData(root);
    var iInput = role(root, "i");
    var posInput = role(root, "pos");
    var kernel = window.TransformerKernel;
    kernel.load(readData(root, "tm-kernel-data"));
    var W_P = kernel.positionalEncoding(data.positions, data.d_model); // [pos][d], the kernel's own W_P

    function x(pos) {
      return (pos / (data.positions - 1)) * data.width;
    }

    function y(value) {
      return ((1 - value) / 2) * (data.height - 2 * data.margin) + data.margin;
    }

    function render() {
      var i = Number(iInput.value);
      var pos = Number(posInput.value);
      var sin = W_P[pos][2 * i], cos = W_P[pos][2 * i + 1];
      role(root, "i-out").textContent = String(i);
      role(root, "pos-out").textContent = String(pos);
      role(root, "sin-path").setAttribute("d", data.sin_path[i]);
      role(root, "cos-path").setAttribute("d", data.cos_path[i]);
      var cursor = role(root, "cursor");
      cursor.setAttribute("x1", x(pos).toFixed(1));
      cursor.setAttribute("x2", x(pos).toFixed(1));
      role(root, "dot-sin").setAttribute("cx", x(pos).toFixed(1));
      role(root, "dot-sin").setAttribute("cy", y(sin).toFixed(1));
      role(root, "dot-cos").setAttribute("cx", x(pos).toFixed(1));
      role(root, "dot-cos").setAttribute("cy", y(cos).toFixed(1));
      role(root, "sin").textContent = fmt(sin, data.decimals);
      role(root, "cos").textContent = fmt(cos, data.decimals);
      role(root, "wavelength").textContent = fmt(data.wavelength[i], data.wavelength_decimals);
    }

    [iInput, posInput].forEach(function (control) {
      control.addEventListener("input", render);
      control.addEventListener("change", render);
    });
    render();
  }

  // ------------------------------------------------------------ sentence explorer

  function initExplorer(root) {
    var data = readData(root);
    var kernel = window.TransformerKernel;
    kernel.load(readData(root, "tm-kernel-data"));
    var vocab = kernel.preset.vocab;
    var T = kernel.preset.T;
    var stages = new Map(data.stages.map(function (s) { return [s.name, s]; }));
    var knobs = new Map(data.knobs.map(function (k) { return [k.name, k]; }));
    var switches = new Map(data.switches.map(function (s) { return [s.name, s]; }));
    var ui = {
      message: role(root, "message"), preset: role(root, "preset"), form: role(root, "text-form"),
      text: role(root, "text"), stage: role(root, "stage"), reset: role(root, "reset"), share: role(root, "share"),
      summary: role(root, "summary"), tables: role(root, "tables"), derivation: role(root, "derivation"),
      status: role(root, "status"),
      words: Array.prototype.slice.call(root.querySelectorAll('[data-role="word"]')),
      knobs: Array.prototype.slice.call(root.querySelectorAll('[data-role="knob"]')),
      switches: Array.prototype.slice.call(root.querySelectorAll('[data-role="switch"]')),
    };
    var textError = el("p", { class: "tm-message", role: "alert", "data-role": "text-error", hidden: "" });
    ui.form.appendChild(textError);

    function defaults() {
      var state = { tokens: data.sentences[0].ids.slice(), knobs: {}, switches: {}, stage: data.default_stage, cell: null };
      data.knobs.forEach(function (k) { state.knobs[k.name] = k.default; });
      data.switches.forEach(function (s) { state.switches[s.name] = s.default; });
      return state;
    }

    var state = defaults();
    var current = null; // {W, trace} of the state
    var table = null; // the drawn tables: {stage, cells: [{button, td, index, value}], byKey: Map}

    // -------------------------------------------------------- the state in the URL

    // The shape of each stage (its index ranges), read off a trace: a cell in the URL must lie inside it.
    function shapeOf(trace, stage) {
      var value = trace[stage], shape = [];
      while (Array.isArray(value)) {
        shape.push(value.length);
        value = value[0];
      }
      return shape;
    }

    var NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

    // URL query → state, or an Error whose message says what was wrong (shown to the reader as text).
    function decode(search) {
      if (search.length > data.max_query_length) throw new Error("URL の状態が長すぎます（" + search.length + " 文字）");
      var params = new URLSearchParams(search);
      var next = defaults();
      var cell = null;
      params.forEach(function (value, key) {
        if (key === "w") {
          var ids = value.split(".");
          if (ids.length !== T || !ids.every(function (id) { return /^\d{1,2}$/.test(id) && Number(id) < vocab.length; })) {
            throw new Error("w は 0〜" + (vocab.length - 1) + " の番号 " + T + " 個をピリオドでつないだものです");
          }
          next.tokens = ids.map(Number);
        } else if (knobs.has(key)) {
          var knob = knobs.get(key), number = Number(value);
          if (!NUMBER.test(value) || !(number >= knob.min && number <= knob.max)) {
            throw new Error(key + " は " + knob.min + "〜" + knob.max + " の数です");
          }
          next.knobs[key] = number;
        } else if (switches.has(key)) {
          if (value !== "0" && value !== "1") throw new Error(key + " は 0 か 1 です");
          next.switches[key] = value === "1";
        } else if (key === "stage") {
          if (!stages.has(value)) throw new Error("stage に指定できる段階ではありません");
          next.stage = value;
        } else if (key === "cell") {
          if (!/^\d{1,2}(\.\d{1,2}){1,2}$/.test(value)) throw new Error("cell の書き方が違います");
          cell = value.split(".").map(Number);
        } // any other key belongs to someone else (e.g. the search's highlight) and is left alone
      });
      if (cell) {
        var shape = shapeOf(compute(next).trace, next.stage);
        if (cell.length !== shape.length || cell.some(function (v, n) { return v >= shape[n]; })) {
          throw new Error("cell が段階 " + next.stage + " の範囲の外です");
        }
        next.cell = cell;
      }
      return next;
    }

    function encode(s) {
      var params = new URLSearchParams();
      if (s.tokens.join(".") !== data.sentences[0].ids.join(".")) params.set("w", s.tokens.join("."));
      data.knobs.forEach(function (k) { if (s.knobs[k.name] !== k.default) params.set(k.name, String(s.knobs[k.name])); });
      data.switches.forEach(function (sw) { if (s.switches[sw.name] !== sw.default) params.set(sw.name, s.switches[sw.name] ? "1" : "0"); });
      if (s.stage !== data.default_stage) params.set("stage", s.stage);
      if (s.cell) params.set("cell", s.cell.join("."));
      return params.toString();
    }

    // The explorer's keys of the query: the other panels' keys stay as they are.
    function ownKeys() {
      return ["w", "stage", "cell"].concat(data.knobs.map(function (k) { return k.name; }), data.switches.map(function (sw) { return sw.name; }));
    }

    function writeUrl() {
      var query = encode(state);
      ui.share.setAttribute("href", (query ? "?" + query : location.pathname) + "#" + root.id);
      writeQuery(root.id, ownKeys, query);
    }

    function showMessage(node, text) {
      node.textContent = text;
      node.hidden = !text;
    }

    // -------------------------------------------------------- computing (through the kernel only)

    function compute(s) {
      var W = kernel.weights(s.knobs);
      var options = { weights: W };
      Object.keys(s.switches).forEach(function (name) { options[name] = s.switches[name]; });
      return { W: W, trace: kernel.forward(s.tokens, options) };
    }

    // -------------------------------------------------------- controls ↔ state

    function knobSliderValue(knob, value) {
      return knob.log ? Math.log10(value) : value;
    }

    function knobText(knob, value) {
      if (knob.log) return value.toExponential(1).replace("e-", "e" + MINUS).replace("e+", "e");
      return fmt(value, 2);
    }

    function syncControls() {
      var presetIndex = data.sentences.findIndex(function (s) { return s.ids.join(".") === state.tokens.join("."); });
      ui.preset.value = presetIndex >= 0 ? String(presetIndex) : "";
      ui.words.forEach(function (select, t) { select.value = String(state.tokens[t]); });
      ui.knobs.forEach(function (input) {
        var knob = knobs.get(input.getAttribute("data-knob"));
        var value = state.knobs[knob.name];
        if (document.activeElement !== input) input.value = String(knobSliderValue(knob, value));
        root.querySelector('[data-role="knob-out"][data-knob="' + knob.name + '"]').textContent = knobText(knob, value);
      });
      ui.switches.forEach(function (box) { box.checked = state.switches[box.getAttribute("data-switch")]; });
      ui.stage.value = state.stage;
    }

    function word(t) {
      return "「" + vocab[state.tokens[t]] + "」（t=" + t + "）";
    }

    // -------------------------------------------------------- the summary: relations and detectors

    var drawnSummary = null;

    function drawSummary() {
      var fresh = el("div");
      summaryInto(fresh);
      if (fresh.innerHTML === drawnSummary) return; // unchanged: leave the page (and its layout) alone
      drawnSummary = fresh.innerHTML;
      ui.summary.textContent = "";
      while (fresh.firstChild) ui.summary.appendChild(fresh.firstChild);
    }

    var VERDICT_WORD = { win: "勝ち", tie: "引き分け", lose: "負け" };
    var VERDICT_CLASS = { win: "tm-win", tie: "tm-tie", lose: "tm-lose" };

    // Who the intended key is measured against: the runner-up of a win, every key it ties with, the winner of a loss.
    function rivalText(r, dec) {
      if (r.verdict === "tie") {
        return "並ぶのは " + r.tied_pos.map(word).join("、") + " の " + fmt(r.runner_up_weight, dec);
      }
      return (r.verdict === "win" ? "次点 " : "いちばん重いのは ") + word(r.runner_up_pos) + " の " + fmt(r.runner_up_weight, dec);
    }

    function summaryInto(box) {
      var trace = current.trace, dec = data.summary_decimals;
      box.appendChild(el("h4", null, "結合が向ける関係（クエリ → キー）"));
      var relations = kernel.relations(trace);
      if (!relations.length) {
        box.appendChild(el("p", { "data-role": "no-relations" }, "この文には、結合が向ける組（形容詞・指示語・代名詞・述語 → 名詞）がありません。"));
      } else {
        var list = el("ul", { "data-role": "relations" });
        relations.forEach(function (r) {
          var bond = data.bonds[r.bond];
          var li = el("li", { "data-bond": r.bond, "data-query": r.query_pos, "data-key": r.key_pos,
            "data-wins": String(r.wins), "data-verdict": r.verdict, "data-tied": r.tied_pos.join(",") });
          li.appendChild(el("strong", null, word(r.query_pos) + " → " + word(r.key_pos)));
          li.appendChild(document.createTextNode("、ヘッド " + r.head + "（結合 " + r.bond + " " + bond.name + "）: "));
          li.appendChild(el("span", { class: VERDICT_CLASS[r.verdict], "data-role": "verdict" }, VERDICT_WORD[r.verdict]));
          li.appendChild(document.createTextNode(" — 重み " + fmt(r.weight, dec) + "、" + rivalText(r, dec) + "、差 "));
          li.appendChild(el("span", { "data-role": "margin" }, fmtSigned(r.margin, dec)));
          list.appendChild(li);
        });
        box.appendChild(list);
        if (relations.some(function (r) { return r.verdict === "tie"; })) {
          box.appendChild(el("p", { class: "tm-note", "data-role": "tie-rule" },
            "重みの差が " + data.tie_tolerance + " 以下なら、表示の桁では見分けられないので引き分けとします。"));
        }
      }
      box.appendChild(el("h4", null, "発火している検出器（ffn_h > " + data.firing_threshold + "）"));
      var fired = kernel.firingDetectors(trace);
      var detectors = el("ul", { "data-role": "detectors" });
      for (var t = 0; t < T; t++) {
        var mine = fired.filter(function (f) { return f.t === t; });
        var text = mine.length ? mine.map(function (f) { return data.neurons[f.k] + " " + fmt(f.ffn_h, 2); }).join("、") : "なし";
        detectors.appendChild(el("li", { "data-t": t, "data-units": mine.map(function (f) { return f.k; }).join(",") }, word(t) + ": " + text));
      }
      box.appendChild(detectors);
    }

    // -------------------------------------------------------- heat tables

    // The tables of a stage: one per head for scores/attn ([head][i][j]) and Q/K/V/head_out ([t][head][k]),
    // one otherwise ([t][d]). Each cell knows its index in the trace's own layout.
    function layoutOf(stage) {
      var meta = stages.get(stage), h = data.n_heads;
      if (meta.per_head) {
        return range(h).map(function (head) {
          return { caption: stage + "（ヘッド " + head + "、行 = クエリ i、列 = キー j）", rows: T, cols: T,
            colLabel: function (c) { return vocab[state.tokens[c]]; },
            index: function (r, c) { return [head, r, c]; } };
        });
      }
      if (meta.split) {
        return range(h).map(function (head) {
          return { caption: stage + "（ヘッド " + head + "、行 = トークン t、列 = k）", rows: T, cols: data.d_k,
            colLabel: function (c) { return "k=" + c; },
            index: function (r, c) { return [r, head, c]; } };
        });
      }
      return [{ caption: stage + "（行 = トークン t）", rows: T, cols: meta.columns.length, vertical: true,
        colLabel: function (c) { return meta.columns[c]; }, index: function (r, c) { return [r, c]; } }];
    }

    function range(n) {
      var out = [];
      for (var i = 0; i < n; i++) out.push(i);
      return out;
    }

    function valueAt(trace, stage, index) {
      var v = trace[stage];
      index.forEach(function (i) { v = v[i]; });
      return v;
    }

    function buildTables() {
      ui.tables.textContent = "";
      ui.tables.className = "tm-tables tm-heat-grid";
      var cells = [];
      layoutOf(state.stage).forEach(function (layout, n) {
        var wrap = el("div", { class: "tf-heat-scroll" });
        var meta = stages.get(state.stage); // what the colours mean, as a heat table of src says it
        var tableEl = el("table", { class: "tf-heat tm-heat tm-explorer-table", "data-table": n,
          "data-scale": meta.scale, "data-cmap": data.palette[meta.scale].name });
        tableEl.appendChild(el("caption", null, layout.caption));
        var thead = el("thead", layout.vertical ? { class: "v" } : null);
        var hr = el("tr");
        hr.appendChild(el("td", { class: "k" }));
        var heads = range(layout.cols).map(function (c) {
          var th = el("th", { scope: "col" }, layout.colLabel(c));
          hr.appendChild(th);
          return th;
        });
        thead.appendChild(hr);
        tableEl.appendChild(thead);
        var tbody = el("tbody");
        var grid = [];
        range(layout.rows).forEach(function (r) {
          var tr = el("tr");
          var rowHead = el("th", { scope: "row" });
          tr.appendChild(rowHead);
          var row = range(layout.cols).map(function (c) {
            var td = el("td");
            var index = layout.index(r, c);
            var button = el("button", { type: "button", class: "tm-cell", "data-index": index.join(","), tabindex: "-1" });
            td.appendChild(button);
            tr.appendChild(td);
            var cell = { td: td, button: button, index: index, r: r, c: c, table: n, rowHead: rowHead };
            button.addEventListener("click", function () { select(cell.index); });
            button.addEventListener("keydown", function (event) { moveFocus(event, grid, r, c); });
            cells.push(cell);
            return cell;
          });
          grid.push(row);
          tbody.appendChild(tr);
        });
        tableEl.appendChild(tbody);
        wrap.appendChild(tableEl);
        ui.tables.appendChild(wrap);
        grid.heads = heads;
        grid.layout = layout;
      });
      table = { stage: state.stage, cells: cells };
    }

    // Arrow keys move between the cells of one table (one tab stop per table: the selected or first cell).
    function moveFocus(event, grid, r, c) {
      var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1], Home: [0, -c], End: [0, grid[0].length - 1 - c] };
      var move = moves[event.key];
      if (!move) return;
      var nr = Math.min(grid.length - 1, Math.max(0, r + move[0]));
      var nc = Math.min(grid[0].length - 1, Math.max(0, c + move[1]));
      event.preventDefault();
      var target = grid[nr][nc];
      select(target.index);
      target.button.focus();
    }

    function sameIndex(a, b) {
      return !!a && !!b && a.join(",") === b.join(",");
    }

    function updateTables() {
      var trace = current.trace, meta = stages.get(state.stage);
      var values = table.cells.map(function (cell) { return valueAt(trace, state.stage, cell.index); });
      var vmin = 0, vmax = 1, palette = data.palette[meta.scale];
      if (meta.scale === "diverging") { // centred at 0, as ColourScale.for_values(values, center=0)
        var span = Math.max(1e-12, Math.max.apply(null, values.map(Math.abs)));
        vmin = -span;
        vmax = span;
      }
      var firstOfTable = {};
      ui.tables.querySelectorAll("table").forEach(function (t) { // the range the colours span, as a heat table says it
        t.setAttribute("data-vmin", String(vmin));
        t.setAttribute("data-vmax", String(vmax));
      });
      table.cells.forEach(function (cell, n) {
        var value = values[n];
        // Write only what changed: an unchanged cell then costs the layout nothing.
        setText(cell.button, fmt(value, data.cell_decimals));
        cell.button.setAttribute("data-value", String(value));
        paint(cell.td, value, palette, vmin, vmax);
        var selected = sameIndex(cell.index, state.cell);
        cell.td.classList.toggle("f", selected);
        cell.button.setAttribute("aria-pressed", String(selected));
        setText(cell.rowHead, vocab[state.tokens[cell.r]]);
        if (!(cell.table in firstOfTable)) firstOfTable[cell.table] = cell;
        cell.button.setAttribute("tabindex", "-1");
      });
      // one tab stop per table: the selected cell, or the table's first
      Object.keys(firstOfTable).forEach(function (n) {
        var inTable = table.cells.filter(function (cell) { return String(cell.table) === n; });
        var stop = inTable.find(function (cell) { return sameIndex(cell.index, state.cell); }) || firstOfTable[n];
        stop.button.setAttribute("tabindex", "0");
      });
      if (stages.get(state.stage).per_head) { // the columns are words too
        ui.tables.querySelectorAll("table").forEach(function (t) {
          t.querySelectorAll("thead th").forEach(function (th, c) { setText(th, vocab[state.tokens[c]]); });
        });
      }
    }

    // -------------------------------------------------------- derivations

    var LABEL = /^([A-Za-z_0-9]+)\[([0-9,]+)\]$/;

    function symbol(label) {
      var m = LABEL.exec(label);
      return m ? data.symbols[m[1]] + "[" + m[2] + "]" : label;
    }

    // A number in TeX: fixed decimals, e-notation for small (and huge) magnitudes, so ε never reads 0.000.
    function num(x) {
      var dec = data.derivation_decimals;
      if (x === 0) return "0";
      var a = Math.abs(x);
      if (a < Math.pow(10, -dec) || a >= 1e6) {
        var parts = x.toExponential(2).split("e");
        return parts[0] + " \\times 10^{" + Number(parts[1]) + "}";
      }
      return x.toFixed(dec);
    }

    function paren(x) {
      return x < 0 ? "(" + num(x) + ")" : num(x);
    }

    function sumTex(values) {
      if (!values.length) return "0";
      return values.map(function (v, n) { return n === 0 ? num(v) : "+ " + paren(v); }).join(" ");
    }

    function line(list, source, name, value, kind) {
      var li = el("li", { class: "tm-line" + (kind ? " tm-" + kind : ""), "data-name": name || null,
        "data-value": value === undefined ? null : String(value) });
      li.appendChild(tex(source));
      list.appendChild(li);
    }

    function termTex(t, der) {
      if (t.factors.length === 2) {
        return symbol(t.factors[0].label) + "\\," + symbol(t.factors[1].label) + " = " + paren(t.factors[0].value) +
          " \\times " + paren(t.factors[1].value) + " = " + num(t.value);
      }
      if (/^exp\(/.test(t.label)) {
        var m = inter(der, "max");
        return "\\exp(" + symbol(t.factors[0].label) + " - m) = \\exp(" + num(t.factors[0].value) + " - " + paren(m) + ") = " + num(t.value);
      }
      return symbol(t.label) + " = " + num(t.value);
    }

    function inter(der, name) {
      var q = der.intermediates.find(function (x) { return x.name === name; });
      return q ? q.value : NaN;
    }

    function cellTex(der) {
      return data.symbols[der.stage] + "[" + der.index.join(",") + "]";
    }

    function context(stage, index) {
      var meta = stages.get(stage);
      if (meta.per_head) return "ヘッド " + index[0] + "、クエリ " + word(index[1]) + " → キー " + word(index[2]);
      if (meta.split) return word(index[0]) + "、ヘッド " + index[1] + "、k = " + index[2];
      return word(index[0]) + "、" + meta.columns[index[1]];
    }

    // The steps after the terms, in the notes' symbols, ending with the result.
    function steps(der, list) {
      var v = der.value, it = function (name) { return inter(der, name); };
      var tx = data.intermediate_tex[der.formula] || {};
      var cell = cellTex(der), termValues = der.terms.map(function (t) { return t.value; });
      switch (der.formula) {
        case "scores":
          line(list, tx.sum + " = " + sumTex(termValues) + " = " + num(it("sum")), "sum", it("sum"));
          line(list, "\\sqrt{d_k} = \\sqrt{" + it("d_k") + "} = " + num(it("sqrt_d_k")), "sqrt_d_k", it("sqrt_d_k"));
          line(list, cell + " = \\frac{" + num(it("sum")) + "}{" + num(it("sqrt_d_k")) + "} = " + num(v), "value", v, "result");
          return;
        case "scores_unscaled":
          line(list, cell + " = " + sumTex(termValues) + " = " + num(v), "value", v, "result");
          return;
        case "attn":
        case "attn_causal":
          line(list, tx.sum + " = " + sumTex(termValues) + " = " + num(it("sum")), "sum", it("sum"));
          line(list, cell + " = \\frac{" + num(it("numerator")) + "}{" + num(it("sum")) + "} = " + num(v), "value", v, "result");
          return;
        case "ln1_out":
        case "ln2_out": {
          var n = current.trace.X[0].length;
          line(list, "\\mu_t = \\tfrac{1}{" + n + "}\\,(" + sumTex(termValues) + ") = " + num(it("mu")), "mu", it("mu"));
          line(list, "\\sigma_t^2 = \\tfrac{1}{" + n + "}\\textstyle\\sum_d (x_d - \\mu_t)^2 = " + num(it("var")), "var", it("var"));
          line(list, "\\sqrt{\\sigma_t^2 + \\varepsilon} = \\sqrt{" + num(it("var")) + " + " + num(it("eps")) + "} = " + num(it("sqrt_var_eps")), "sqrt_var_eps", it("sqrt_var_eps"));
          line(list, "\\frac{x - \\mu_t}{\\sqrt{\\sigma_t^2 + \\varepsilon}} = \\frac{" + num(it("input")) + " - " + paren(it("mu")) + "}{" + num(it("sqrt_var_eps")) + "} = " + num(it("normalised")), "normalised", it("normalised"));
          line(list, cell + " = \\gamma[d] \\cdot (\\cdot) + \\beta[d] = " + paren(it("gamma")) + " \\times " + paren(it("normalised")) + " + " + paren(it("beta")) + " = " + num(v), "value", v, "result");
          return;
        }
        case "ffn_h": {
          var c = String(data.gelu_cubic); // the constant exactly as src has it
          line(list, tx.sum + " = " + sumTex(termValues) + " = " + num(it("sum")), "sum", it("sum"));
          line(list, "x = \\mathrm{ffn\\_pre}[t,k] = " + num(it("sum")) + " + " + paren(it("b1")) + " = " + num(it("ffn_pre")), "ffn_pre", it("ffn_pre"));
          line(list, "u = \\sqrt{2/\\pi}\\,(x + " + c + "\\,x^3) = " + num(it("tanh_arg")), "tanh_arg", it("tanh_arg"));
          line(list, cell + " = \\tfrac12\\,x\\,(1 + \\tanh u) = \\tfrac12 \\times " + paren(it("ffn_pre")) + " \\times (1 + \\tanh " + paren(it("tanh_arg")) + ") = " + num(v), "value", v, "result");
          return;
        }
        case "X_tok":
          line(list, cell + " = W_E[" + current.trace.tokens[der.index[0]] + "," + der.index[1] + "] = " + num(v), "value", v, "result");
          return;
        case "X_pos": {
          var i = Math.floor(der.index[1] / 2);
          line(list, "\\omega_{" + i + "} = " + data.pe_base + "^{-2 \\cdot " + i + "/" + current.trace.X[0].length + "} = " + num(it("omega")), "omega", it("omega"));
          line(list, "t\\,\\omega_{" + i + "} = " + der.index[0] + " \\times " + num(it("omega")) + " = " + num(it("angle")), "angle", it("angle"));
          line(list, cell + " = " + (der.index[1] % 2 === 0 ? "\\sin" : "\\cos") + "(" + num(it("angle")) + ") = " + num(v), "value", v, "result");
          return;
        }
        case "X_pos_off":
          line(list, cell + " = 0", "value", v, "result");
          return;
        case "X":
        case "residual1":
        case "residual2":
          line(list, cell + " = " + sumTex(termValues) + " = " + num(v), "value", v, "result");
          return;
        default: // Σ of products, with a bias for ffn_pre and ffn_out
          line(list, tx.sum + " = " + sumTex(termValues) + " = " + num(it("sum")), "sum", it("sum"));
          if (tx.bias) line(list, cell + " = " + num(it("sum")) + " + " + paren(it("bias")) + " = " + num(v), "value", v, "result");
          else line(list, cell + " = " + num(v), "value", v, "result");
      }
    }

    function drawDerivation() {
      var panel = ui.derivation;
      panel.classList.remove("tm-stale");
      panel.textContent = "";
      if (!state.cell) {
        panel.appendChild(el("p", { class: "tm-hint" }, "表のセルを選ぶと、ここにその値の導出が出ます。"));
        ui.status.textContent = "";
        return;
      }
      var der = kernel.derive(current.trace, current.W, state.stage, state.cell, state.switches);
      panel.appendChild(el("h4", { "data-role": "cell" }, der.cell));
      panel.appendChild(el("p", { class: "tm-context" }, context(state.stage, state.cell)));
      var head = el("ol", { class: "tm-lines", "data-role": "formula" });
      line(head, data.formulas[der.formula], "formula", undefined, "formula");
      if (der.formula === "attn" || der.formula === "attn_causal") {
        line(head, data.intermediate_tex[der.formula].max + " = " + num(inter(der, "max")), "max", inter(der, "max"));
      }
      panel.appendChild(head);
      panel.appendChild(el("p", { class: "tm-step" }, der.terms.length ? "0 でない項（" + der.terms.length + " 個）" : "0 でない項はありません"));
      var terms = el("ol", { class: "tm-terms", "data-role": "terms" });
      der.terms.forEach(function (t) {
        var li = el("li", { "data-label": t.label, "data-value": String(t.value) });
        li.appendChild(tex(termTex(t, der)));
        terms.appendChild(li);
      });
      if (der.terms.length) panel.appendChild(terms);
      if (der.n_zero_terms > 0) {
        var why = der.formula === "attn_causal" ? "マスクで 0 になる j > i の項 " : "ちょうど 0 になる項 ";
        panel.appendChild(el("p", { class: "tm-zero" }, "（" + why + der.n_zero_terms + " 個は省略）"));
      }
      panel.appendChild(el("p", { class: "tm-step" }, "和と結果"));
      var rest = el("ol", { class: "tm-lines", "data-role": "steps" });
      steps(der, rest);
      panel.appendChild(rest);
      ui.status.textContent = der.cell + " = " + fmt(der.value, data.derivation_decimals) + "（導出は表の下）";
      typeset(panel);
    }

    // -------------------------------------------------------- one change → one recompute and redraw

    var derivationTimer = null;

    // One change: recompute through the kernel, redraw the tables and the summary at once. While a slider is
    // being dragged (``live``), the derivation — dozens of formulas to typeset — follows once the slider rests.
    function render(live) {
      current = compute(state);
      syncControls();
      if (!table || table.stage !== state.stage) buildTables();
      updateTables();
      drawSummary();
      clearTimeout(derivationTimer);
      if (live && state.cell) {
        ui.derivation.classList.add("tm-stale");
        derivationTimer = setTimeout(drawDerivation, 120);
      } else {
        drawDerivation();
      }
      writeUrl();
    }

    function select(index) {
      state.cell = index.slice();
      updateTables();
      drawDerivation();
      writeUrl();
    }

    ui.preset.addEventListener("change", function () {
      if (ui.preset.value === "") return;
      state.tokens = data.sentences[Number(ui.preset.value)].ids.slice();
      render();
    });
    ui.words.forEach(function (select_, t) {
      select_.addEventListener("change", function () {
        state.tokens[t] = Number(select_.value);
        render();
      });
    });
    ui.form.addEventListener("submit", function (event) {
      event.preventDefault();
      try {
        state.tokens = kernel.tokenize(ui.text.value.slice(0, data.max_text_length));
        showMessage(textError, "");
        render();
      } catch (error) {
        if (error.name !== "TokenizeError") throw error;
        showMessage(textError, tokenizeMessage(error));
      }
    });
    ui.knobs.forEach(function (input) {
      input.addEventListener("input", function () {
        var knob = knobs.get(input.getAttribute("data-knob"));
        var v = Number(input.value);
        state.knobs[knob.name] = knob.log ? Number(Math.pow(10, v).toPrecision(12)) : v;
        render(true);
      });
      input.addEventListener("change", function () { render(false); }); // the slider was let go
    });
    ui.switches.forEach(function (box) {
      box.addEventListener("change", function () {
        state.switches[box.getAttribute("data-switch")] = box.checked;
        render();
      });
    });
    ui.stage.addEventListener("change", function () {
      state.stage = ui.stage.value;
      state.cell = null;
      render();
    });
    ui.reset.addEventListener("click", function () {
      var fresh = defaults();
      state.knobs = fresh.knobs;
      state.switches = fresh.switches;
      showMessage(ui.message, "");
      render();
    });

    function tokenizeMessage(error) {
      var vocabulary = "使える語: " + vocab.join("、");
      if (error.kind === "unknown_word") {
        return "「" + error.word + "」は語彙にない語です（" + (error.position + 1) + " 語目、t = " + error.position + "）。" + vocabulary;
      }
      if (error.kind === "no_word") {
        var rest = Array.from(error.rest);
        var shown = rest.slice(0, 12).join("") + (rest.length > 12 ? "…" : "");
        return (error.position + 1) + " 文字目から始まる語が語彙にありません（「" + shown + "」のところ）。" + vocabulary;
      }
      return "語が " + error.count + " 個あります。このブロックはちょうど " + error.expected + " 語の文を受け取ります。";
    }

    try {
      state = decode(location.search);
    } catch (error) {
      state = defaults();
      showMessage(ui.message, error.message + "。例文 1 とプリセットの重みを表示しています。");
    }
    render();
  }

  // ------------------------------------------------------------ the state of several panels in one URL

  // Replace this panel's keys of the page's query (the other panels' keys stay) after a pause: a dragged
  // slider would otherwise call replaceState many times a second.
  var urlTimers = {};

  function writeQuery(owner, ownKeys, query) {
    clearTimeout(urlTimers[owner]);
    urlTimers[owner] = setTimeout(function () {
      var params = new URLSearchParams(location.search);
      ownKeys(params).forEach(function (key) { params.delete(key); });
      new URLSearchParams(query).forEach(function (value, key) { params.set(key, value); });
      var search = params.toString();
      history.replaceState(history.state, "", location.pathname + (search ? "?" + search : "") + location.hash);
    }, 150);
  }

  // ------------------------------------------------------------ generation (the decoder of the kernel)

  var NUMBER_TEXT = /^-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?$/i;

  function initGenerate(root) {
    var data = readData(root);
    var text = data.text;
    var decoder = window.TransformerKernel.decoder; // every number shown is computed by it
    var vocab = decoder.vocab;
    var KEYS = ["gw", "gt", "gk", "gp", "gs"];
    var ui = {
      message: role(root, "message"), preset: role(root, "preset"), form: role(root, "prompt-form"),
      prompt: role(root, "prompt"), temperature: role(root, "temperature"), topK: role(root, "top-k"),
      topP: role(root, "top-p"), seed: role(root, "seed"), nextSeed: role(root, "next-seed"),
      reset: role(root, "reset"), share: role(root, "share"), result: role(root, "result"), steps: role(root, "steps"),
    };

    function defaults() {
      return { ids: data.prompts[0].ids.slice(), temperature: data.defaults.temperature, topK: data.defaults.top_k,
        topP: data.defaults.top_p, seed: data.defaults.seed };
    }

    var state = defaults();

    function showMessage(message) {
      ui.message.textContent = message;
      ui.message.hidden = !message;
    }

    function words(ids) {
      return ids.map(function (id) { return vocab[id]; });
    }

    // -------------------------------------------------------- the URL: data, checked before use

    function decode(search) {
      if (search.length > data.max_query_length) throw new Error(text.url_too_long.replace("{n}", search.length));
      var params = new URLSearchParams(search);
      var next = defaults();
      if (params.has("gw")) {
        var parts = params.get("gw").split(".");
        var ok = parts.length <= decoder.nPositions && parts.every(function (p) { return /^\d{1,2}$/.test(p) && Number(p) < vocab.length; });
        if (!ok || Number(parts[0]) !== decoder.bos) throw new Error(text.url_prompt.replace("{bos}", decoder.bos).replace("{n}", decoder.nPositions));
        next.ids = parts.map(Number);
      }
      if (params.has("gt")) {
        var t = params.get("gt"), tv = Number(t);
        if (!NUMBER_TEXT.test(t) || !(tv > 0 && tv <= data.max_temperature)) throw new Error(text.url_temperature.replace("{max}", data.max_temperature));
        next.temperature = tv;
      }
      if (params.has("gk")) {
        var k = params.get("gk");
        if (!/^\d{1,2}$/.test(k) || Number(k) < 1 || Number(k) > vocab.length) throw new Error(text.url_top_k.replace("{n}", vocab.length));
        next.topK = Number(k);
      }
      if (params.has("gp")) {
        var p = params.get("gp"), pv = Number(p);
        if (!NUMBER_TEXT.test(p) || !(pv > 0 && pv <= 1)) throw new Error(text.url_top_p);
        next.topP = pv;
      }
      if (params.has("gs")) {
        var sd = params.get("gs");
        if (!/^\d{1,10}$/.test(sd) || Number(sd) > 4294967295) throw new Error(text.url_seed);
        next.seed = Number(sd);
      }
      return next;
    }

    function encode(s) {
      var params = new URLSearchParams(), d = defaults();
      if (s.ids.join(".") !== d.ids.join(".")) params.set("gw", s.ids.join("."));
      if (s.temperature !== d.temperature) params.set("gt", String(s.temperature));
      if (s.topK !== d.topK) params.set("gk", String(s.topK));
      if (s.topP !== d.topP) params.set("gp", String(s.topP));
      if (s.seed !== d.seed) params.set("gs", String(s.seed));
      return params.toString();
    }

    function writeUrl() {
      var query = encode(state);
      ui.share.setAttribute("href", (query ? "?" + query : location.pathname) + "#" + root.id);
      writeQuery(root.id, function () { return KEYS; }, query);
    }

    // -------------------------------------------------------- controls → state (a clear message when wrong)

    function promptMessage(error) {
      if (error.kind === "unknown_word") {
        return text.unknown_word.replace("{word}", error.word).replace("{n}", error.position) + vocab.filter(function (w) {
          return w !== vocab[decoder.bos] && w !== vocab[decoder.eos];
        }).join("、");
      }
      if (error.kind === "length") return text.too_long.replace("{count}", error.count).replace("{n}", decoder.nPositions);
      return text.empty_prompt;
    }

    function readKnobs() {
      var t = ui.temperature.value.trim(), tv = Number(t);
      if (!t || !NUMBER_TEXT.test(t) || !(tv > 0) || tv > data.max_temperature) throw new Error(text.bad_temperature.replace("{max}", data.max_temperature));
      var p = ui.topP.value.trim(), pv = Number(p);
      if (!p || !NUMBER_TEXT.test(p) || !(pv > 0 && pv <= 1)) throw new Error(text.bad_top_p);
      var sd = ui.seed.value.trim();
      if (!/^\d{1,10}$/.test(sd) || Number(sd) > 4294967295) throw new Error(text.bad_seed);
      var k = ui.topK.value;
      return { temperature: tv, topP: pv, seed: Number(sd), topK: k === "" ? null : Number(k) };
    }

    function fromControls(promptToo) {
      var next = { ids: state.ids };
      try {
        if (promptToo) next.ids = decoder.promptIds(ui.prompt.value);
        var knobs = readKnobs();
        Object.keys(knobs).forEach(function (key) { next[key] = knobs[key]; });
      } catch (error) {
        showMessage(error.name === "DecoderError" ? promptMessage(error) : error.message);
        ui.result.setAttribute("data-stale", "true");
        return;
      }
      showMessage("");
      state = next;
      render();
    }

    function syncControls() {
      var n = data.prompts.findIndex(function (p) { return p.ids.join(".") === state.ids.join("."); });
      ui.preset.value = n >= 0 ? String(n) : "";
      ui.prompt.value = words(state.ids.slice(1)).join(" ");
      ui.temperature.value = String(state.temperature);
      ui.topK.value = state.topK === null ? "" : String(state.topK);
      ui.topP.value = String(state.topP);
      ui.seed.value = String(state.seed);
    }

    // -------------------------------------------------------- drawing

    function shown(x) { // probabilities as the page writes them: 3 decimals, a tiny one as 3.3×10⁻⁴
      if (x === 0 || x >= 0.001) return x === 0 ? "0" : x.toFixed(3);
      var parts = x.toExponential(1).split("e");
      var sup = { "-": "\u207b", "0": "\u2070", "1": "\u00b9", "2": "\u00b2", "3": "\u00b3", "4": "\u2074", "5": "\u2075", "6": "\u2076", "7": "\u2077", "8": "\u2078", "9": "\u2079" };
      return parts[0] + "×10" + parts[1].split("").map(function (c) { return sup[c] || ""; }).join("");
    }

    function distributionTable(step, all) {
      var c = step.choice;
      var order = c.probs.map(function (_, id) { return id; }).sort(function (a, b) { return c.probs[b] - c.probs[a] || a - b; });
      var rows = all ? order : order.slice(0, data.top_rows);
      if (!all && rows.indexOf(c.word) < 0) rows.push(c.word);
      var wrap = el("div", { class: "tf-heat-scroll" });
      var table = el("table", { class: "tm-dist", "data-role": all ? "distribution-all" : "distribution" });
      table.appendChild(el("caption", null, all ? text.all_words : text.top_words.replace("{n}", data.top_rows)));
      var head = el("tr");
      [text.word, text.p_model, text.p_draw].forEach(function (h) { head.appendChild(el("th", { scope: "col" }, h)); });
      var thead = el("thead");
      thead.appendChild(head);
      table.appendChild(thead);
      var body = el("tbody");
      rows.forEach(function (id) {
        var tr = el("tr", { "data-word": id, class: id === c.word ? "tm-chosen" : null });
        tr.appendChild(el("th", { scope: "row" }, vocab[id] + (id === c.word ? " ← " + text.chosen : "")));
        tr.appendChild(el("td", { "data-value": String(c.probs[id]) }, shown(c.probs[id])));
        tr.appendChild(el("td", { "data-value": String(c.final[id]) }, c.final[id] > 0 ? shown(c.final[id]) : text.dropped));
        body.appendChild(tr);
      });
      table.appendChild(body);
      wrap.appendChild(table);
      return wrap;
    }

    function attentionTable(step) {
      var wrap = el("div", { class: "tf-heat-scroll" });
      var table = el("table", { class: "tf-heat tm-heat", "data-role": "attention", "data-scale": "sequential",
        "data-cmap": data.palette.name, "data-vmin": "0", "data-vmax": "1" });
      table.appendChild(el("caption", null, text.attention_caption));
      var thead = el("thead"), head = el("tr");
      head.appendChild(el("td", { class: "k" }));
      step.context.forEach(function (id, j) { head.appendChild(el("th", { scope: "col" }, vocab[id] + " (" + j + ")")); });
      thead.appendChild(head);
      table.appendChild(thead);
      var body = el("tbody");
      step.attn.forEach(function (heads, b) {
        heads.forEach(function (row, a) {
          var tr = el("tr");
          tr.appendChild(el("th", { scope: "row" }, text.block_head.replace("{b}", b + 1).replace("{a}", a)));
          row.forEach(function (w) {
            var td = el("td", { "data-value": String(w) }, fmt(w, 2));
            paint(td, w, data.palette, 0, 1);
            tr.appendChild(td);
          });
          body.appendChild(tr);
        });
      });
      table.appendChild(body);
      wrap.appendChild(table);
      return wrap;
    }

    function stepItem(step, n) {
      var c = step.choice;
      var li = el("li", { class: "tm-gen-step", "data-step": n, "data-word": c.word });
      var title = el("p", { class: "tm-step" });
      title.appendChild(el("span", null, text.step_title.replace("{n}", n + 1).replace("{last}", vocab[step.context[step.context.length - 1]])));
      title.appendChild(el("strong", null, vocab[c.word]));
      li.appendChild(title);
      li.appendChild(el("p", { class: "tm-context", "data-role": "u", "data-value": String(c.u) },
        text.u_line.replace("{u}", fmt(c.u, 4)).replace("{kept}", c.final.filter(function (x) { return x > 0; }).length)));
      li.appendChild(distributionTable(step, false));
      var all = el("details", { class: "tm-more" });
      all.appendChild(el("summary", null, text.open_all));
      all.appendChild(distributionTable(step, true));
      li.appendChild(all);
      var attn = el("details", { class: "tm-more", "data-role": "attention-details" });
      attn.appendChild(el("summary", null, text.open_attention));
      attn.appendChild(attentionTable(step));
      li.appendChild(attn);
      return li;
    }

    function render() {
      syncControls();
      var run = decoder.run(state.ids, { temperature: state.temperature, topK: state.topK, topP: state.topP, seed: state.seed });
      var prompt = words(run.prompt).join(" "), made = words(run.tokens.slice(run.prompt.length)).join(" ");
      ui.result.textContent = "";
      ui.result.removeAttribute("data-stale");
      var line = el("p", { "data-role": "sentence", "data-ids": run.tokens.join(".") });
      line.appendChild(el("span", { class: "tm-context" }, prompt + " "));
      line.appendChild(el("strong", null, made));
      ui.result.appendChild(line);
      ui.result.appendChild(el("p", { class: "tm-context", "data-role": "stopped", "data-stopped": run.stopped },
        text["stopped_" + run.stopped].replace("{n}", decoder.nPositions)));
      ui.steps.textContent = "";
      run.steps.forEach(function (step, n) { ui.steps.appendChild(stepItem(step, n)); });
      writeUrl();
    }

    // -------------------------------------------------------- events

    ui.preset.addEventListener("change", function () {
      if (ui.preset.value === "") return;
      state.ids = data.prompts[Number(ui.preset.value)].ids.slice();
      ui.prompt.value = words(state.ids.slice(1)).join(" ");
      fromControls(false);
    });
    ui.form.addEventListener("submit", function (event) {
      event.preventDefault();
      fromControls(true);
    });
    [ui.temperature, ui.topP, ui.seed].forEach(function (input) {
      input.addEventListener("change", function () { fromControls(false); });
    });
    ui.topK.addEventListener("change", function () { fromControls(false); });
    ui.nextSeed.addEventListener("click", function () {
      var n = Number(ui.seed.value);
      ui.seed.value = String(Number.isInteger(n) && n >= 0 && n < 4294967295 ? n + 1 : 0);
      fromControls(false);
    });
    ui.reset.addEventListener("click", function () {
      state = defaults();
      showMessage("");
      render();
    });

    try {
      state = decode(location.search);
    } catch (error) {
      state = defaults();
      showMessage(error.message + text.url_fallback);
    }
    render();
  }

  // ------------------------------------------------------------ start

  var INIT = { sdpa: initSdpa, pe: initPe, explorer: initExplorer, generate: initGenerate };
  var TEXT = {
    data_failed: "この図のデータを読み込めませんでした。ページを再読み込みしてください。",
  };
  // A panel starts when it comes within a screen of the reader's view: computing and drawing it costs a phone
  // 100-200 ms, which the page's start should not wait for when the panel is far below.
  var NEAR = "100% 0px";
  var files = {}; // a data file's address → the promise of its text (one file can serve several panels)

  // The build moves each panel's data to a file (transformer_site.publishing.panel_data): <template data-src>.
  function fetchText(url) {
    if (!files[url]) {
      files[url] = fetch(url).then(function (response) {
        if (!response.ok) throw new Error("panels.js: " + url + " answered " + response.status);
        return response.text();
      });
      files[url].catch(function () { delete files[url]; }); // a later start asks again
    }
    return files[url];
  }

  function fillTemplates(root) {
    var empty = root.querySelectorAll("template[data-src]");
    return Promise.all(Array.prototype.map.call(empty, function (template) {
      var url = new URL(template.getAttribute("data-src"), document.baseURI).href;
      return fetchText(url).then(function (text) {
        template.content.replaceChildren(document.createTextNode(text));
        template.removeAttribute("data-src");
      });
    }));
  }

  // As panels-loader.js says that the scripts could not be loaded: in the panel, and in the console with the file.
  function sayDataFailed(root, error) {
    console.error(error);
    if (root.querySelector(".tm-load-failed")) return;
    root.insertBefore(el("p", { class: "tm-message tm-load-failed", role: "alert" }, TEXT.data_failed), root.firstChild);
  }

  function start(root) {
    if (root.getAttribute("data-tm-ready") || root.getAttribute("data-tm-starting")) return;
    var init = INIT[root.getAttribute("data-tm-panel")];
    if (!init) return;
    root.setAttribute("data-tm-starting", "1");
    fillTemplates(root).then(function () {
      init(root);
      root.setAttribute("data-tm-ready", "1");
      root.dispatchEvent(new CustomEvent("tm:drawn", { bubbles: true })); // scroll-regions.js measures its boxes
    }).catch(function (error) {
      sayDataFailed(root, error);
    }).then(function () {
      root.removeAttribute("data-tm-starting");
    });
  }

  function startNear(entries, observer) {
    entries.forEach(function (entry) {
      if (!entry.isIntersecting) return;
      observer.unobserve(entry.target);
      start(entry.target);
    });
  }

  function initAll() {
    var panels = document.querySelectorAll("[data-tm-panel]:not([data-tm-ready])");
    if (!("IntersectionObserver" in window)) {
      panels.forEach(start);
      return;
    }
    var watching = new IntersectionObserver(startNear, { rootMargin: NEAR });
    panels.forEach(function (root) { watching.observe(root); });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(initAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initAll);
  } else {
    initAll();
  }
})();
