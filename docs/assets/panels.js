/* Interactive panels of the site ("動かしてみる").
 *
 * Every number shown here was computed in Python (src/transformer_math/panels.py, derivations.py) at
 * build time and embedded in the page as JSON, already rounded to the displayed precision.
 * This script only selects an entry for the current control setting and draws it: no formula lives here.
 */
(function () {
  "use strict";

  var MINUS = "\u2212";

  // Display form of a stored (already rounded) number: U+2212 for negatives, no negative zero.
  function fmt(value, decimals) {
    var text = Math.abs(value).toFixed(decimals);
    return value < 0 && Number(text) !== 0 ? MINUS + text : text;
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        node.setAttribute(key, attrs[key]);
      });
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function role(root, name) {
    return root.querySelector('[data-role="' + name + '"]');
  }

  function readData(root) {
    // A <template> (not a <script>): Material's instant navigation re-runs scripts, see src/transformer_site/panels.py.
    return JSON.parse(root.querySelector("template.tm-panel-data").content.textContent);
  }

  // Cell colour: blue for positive, red for negative, opacity by |value| / scale (scale comes from Python).
  function shade(cell, value, scale) {
    var strength = Math.min(1, Math.abs(value) / scale);
    var rgb = value >= 0 ? "33, 150, 243" : "244, 67, 54";
    cell.style.backgroundColor = "rgba(" + rgb + ", " + (0.7 * strength).toFixed(3) + ")";
  }

  // Formulas use the site's KaTeX (docs/assets/javascripts/katex-init.js renders the page's own ones).
  function typeset(node) {
    if (!window.katex) return; // without KaTeX the TeX source stays readable as text
    node.querySelectorAll(".arithmatex").forEach(function (span) {
      if (span.getAttribute("data-typeset") === "done") return;
      try {
        window.katex.render(span.getAttribute("data-tex"), span, {
          displayMode: false,
          throwOnError: true,
          strict: "error",
          output: "htmlAndMathml",
        });
        span.setAttribute("data-typeset", "done");
      } catch (err) {
        span.classList.add("math-error");
        console.error("KaTeX: " + err.message + " in: " + span.getAttribute("data-tex"));
      }
    });
  }

  function tex(source) {
    return el("span", { class: "arithmatex", "data-tex": source }, "\\(" + source + "\\)");
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
    hr.appendChild(el("td"));
    for (var j = 0; j < n; j++) hr.appendChild(el("th", { scope: "col" }, "k" + (j + 1)));
    head.appendChild(hr);
    table.appendChild(head);
    var body = el("tbody");
    var cells = [];
    for (var i = 0; i < n; i++) {
      var tr = el("tr");
      tr.appendChild(el("th", { scope: "row" }, "q" + (i + 1)));
      for (var jj = 0; jj < n; jj++) {
        var td = el("td");
        tr.appendChild(td);
        cells.push(td);
      }
      body.appendChild(tr);
    }
    table.appendChild(body);

    function render() {
      var d = Number(dk.value);
      // Position of this setting in the list Python wrote (d_k-major, then scale, then causal).
      var index = ((d - 1) * 2 + (scale.checked ? 1 : 0)) * 2 + (causal.checked ? 1 : 0);
      var weights = data.weights[index];
      role(root, "dk-out").textContent = String(d);
      for (var r = 0; r < n; r++) {
        for (var c = 0; c < n; c++) {
          var cell = cells[r * n + c];
          var w = weights[r][c];
          cell.textContent = fmt(w, data.cell_decimals);
          shade(cell, w, 1);
          cell.classList.toggle("tm-masked", causal.checked && c > r);
        }
      }
      role(root, "std").textContent = fmt(data.std[index], data.stat_decimals);
      role(root, "row-max").textContent = fmt(data.row_max[index], data.stat_decimals);
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

    function render() {
      var i = Number(iInput.value);
      var pos = Number(posInput.value);
      var point = data.points[i][pos]; // [x, y of sin, y of cos] in the plot's user units
      role(root, "i-out").textContent = String(i);
      role(root, "pos-out").textContent = String(pos);
      role(root, "sin-path").setAttribute("d", data.sin_path[i]);
      role(root, "cos-path").setAttribute("d", data.cos_path[i]);
      var cursor = role(root, "cursor");
      cursor.setAttribute("x1", point[0]);
      cursor.setAttribute("x2", point[0]);
      role(root, "dot-sin").setAttribute("cx", point[0]);
      role(root, "dot-sin").setAttribute("cy", point[1]);
      role(root, "dot-cos").setAttribute("cx", point[0]);
      role(root, "dot-cos").setAttribute("cy", point[2]);
      role(root, "sin").textContent = fmt(data.sin[i][pos], data.decimals);
      role(root, "cos").textContent = fmt(data.cos[i][pos], data.decimals);
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
    var sentenceSelect = role(root, "sentence");
    var stageSelect = role(root, "stage");
    var tables = role(root, "tables");
    var panel = role(root, "derivation");

    function contextOf(sentence, stage, index) {
      var words = sentence.words;
      if (data.meta[stage].per_head) {
        return "head " + index[0] + "、" + words[index[1]] + "（i=" + index[1] + "）→ " + words[index[2]] + "（j=" + index[2] + "）";
      }
      return words[index[0]] + "（t=" + index[0] + "）、" + data.meta[stage].columns[index[1]];
    }

    function showDerivation(sentence, stage, index, flat) {
      var meta = data.meta[stage];
      var cell = sentence.derivations[stage][flat]; // [termset, zero terms, intermediates, value]
      var terms = sentence.termsets[cell[0]];
      var dec = data.derivation_decimals;
      panel.textContent = "";
      panel.appendChild(el("h4", { "data-role": "cell" }, stage + "[" + index.join(",") + "]"));
      panel.appendChild(el("p", { class: "tm-context" }, contextOf(sentence, stage, index)));
      panel.appendChild(el("p", { class: "tm-step" }, "一般式"));
      panel.appendChild(tex(meta.formula));
      panel.appendChild(el("p", { class: "tm-step" }, "0 でない項（" + terms.length + " 個）"));
      var list = el("ol", { class: "tm-terms", "data-role": "terms" });
      terms.forEach(function (term) {
        var li = el("li");
        var factors = term[2];
        var single = factors.length === 1 && factors[0][0] === term[0];
        if (!single) {
          factors.forEach(function (f, k) {
            if (k > 0) li.appendChild(document.createTextNode(" × "));
            li.appendChild(el("span", { class: "tm-factor" }, f[0] + " = " + fmt(f[1], dec)));
          });
          li.appendChild(document.createTextNode(" → "));
        }
        li.appendChild(el("span", { class: "tm-term-label" }, term[0]));
        li.appendChild(document.createTextNode(" = "));
        li.appendChild(el("span", { class: "tm-term-value" }, fmt(term[1], dec)));
        list.appendChild(li);
      });
      panel.appendChild(list);
      if (cell[1] > 0) panel.appendChild(el("p", { class: "tm-zero" }, "（ちょうど 0 になる項 " + cell[1] + " 個は省略）"));
      panel.appendChild(el("p", { class: "tm-step" }, "途中の値"));
      var dl = el("dl", { class: "tm-intermediates", "data-role": "intermediates" });
      meta.intermediates.forEach(function (pair, k) {
        var row = el("div", { "data-name": pair[0] });
        var dt = el("dt");
        dt.appendChild(tex(pair[1]));
        row.appendChild(dt);
        row.appendChild(el("dd", null, fmt(cell[2][k], dec)));
        dl.appendChild(row);
      });
      panel.appendChild(dl);
      // Announce only the cell and its value; the full derivation is there to read at will.
      role(root, "status").textContent = stage + "[" + index.join(",") + "] = " + fmt(cell[3], dec) + "（導出は表の下）";
      var result = el("p", { class: "tm-result" }, "値 = ");
      result.appendChild(el("strong", { "data-role": "value" }, fmt(cell[3], dec)));
      panel.appendChild(result);
      typeset(panel);
    }

    function matrixTable(sentence, stage, matrix, caption, head) {
      var meta = data.meta[stage];
      var derivable = data.derivable.indexOf(stage) >= 0;
      var scale = sentence.scales[stage];
      var words = sentence.words;
      var columns = meta.per_head ? words : meta.columns;
      var table = el("table", { class: "tm-heatmap tm-explorer-table" });
      table.appendChild(el("caption", null, caption));
      var thead = el("thead");
      var hr = el("tr");
      hr.appendChild(el("td"));
      columns.forEach(function (name) {
        hr.appendChild(el("th", { scope: "col", class: meta.per_head ? "" : "tm-vertical" }, name));
      });
      thead.appendChild(hr);
      table.appendChild(thead);
      var tbody = el("tbody");
      matrix.forEach(function (row, r) {
        var tr = el("tr");
        tr.appendChild(el("th", { scope: "row" }, words[r]));
        row.forEach(function (value, c) {
          var td = el("td");
          shade(td, value, scale);
          var text = fmt(value, data.cell_decimals);
          if (derivable) {
            var index = meta.per_head ? [head, r, c] : [r, c];
            var flat = meta.per_head ? (head * words.length + r) * words.length + c : r * row.length + c;
            var button = el("button", { type: "button", class: "tm-cell", "data-index": index.join(",") }, text);
            button.addEventListener("click", function () {
              showDerivation(sentence, stage, index, flat);
            });
            button.addEventListener("focus", function () {
              showDerivation(sentence, stage, index, flat);
            });
            td.appendChild(button);
          } else {
            td.textContent = text;
          }
          tr.appendChild(td);
        });
        tbody.appendChild(tr);
      });
      table.appendChild(tbody);
      return table;
    }

    function render() {
      var sentence = data.sentences[Number(sentenceSelect.value)];
      var stage = stageSelect.value;
      var matrix = sentence.stages[stage];
      tables.textContent = "";
      panel.textContent = "";
      if (data.meta[stage].per_head) {
        for (var h = 0; h < data.n_heads; h++) {
          var caption = stage + "（head " + h + "、行 = クエリ i、列 = キー j）";
          tables.appendChild(matrixTable(sentence, stage, matrix[h], caption, h));
        }
      } else {
        tables.appendChild(matrixTable(sentence, stage, matrix, stage + "（行 = トークン）", null));
      }
      if (data.derivable.indexOf(stage) >= 0) {
        panel.appendChild(el("p", { class: "tm-hint" }, "セルを選ぶと、ここに導出が出ます。"));
      }
    }

    sentenceSelect.addEventListener("change", render);
    stageSelect.addEventListener("change", render);
    render();
  }

  // ------------------------------------------------------------ start (and restart after instant navigation)

  var INIT = { sdpa: initSdpa, pe: initPe, explorer: initExplorer };

  function initAll() {
    document.querySelectorAll("[data-tm-panel]").forEach(function (root) {
      if (root.getAttribute("data-tm-ready")) return;
      var init = INIT[root.getAttribute("data-tm-panel")];
      if (!init) return;
      init(root);
      root.setAttribute("data-tm-ready", "1");
    });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(initAll);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", initAll);
  } else {
    initAll();
  }
})();
