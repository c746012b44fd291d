/* 確認問題: checking a reader's answer against the one the build computed (transformer_site.exercises.html).
 *
 * Nothing is computed here: each question carries its answer (data-answer: the number in the question's form,
 * or the key of the right option). A number is right when it lies within half a unit of the answer's last digit
 * (0.652 accepts 0.6515 … 0.6525 and refuses 0.653), however the reader writes it: full-width digits, a minus
 * sign (−, ー), a leading +, thousands separators, a final %, and a fraction (1/8, 8分の1) where the question
 * says 分数でも可. Input that cannot be read is not an attempt: the message names the form to use.
 *
 * Attempts: a wrong answer says what is wrong with it (a choice: that option's own reason; a number: its sign,
 * its order of magnitude, its rounding, or too large / too small), opens the hint and leaves the question open;
 * the solution opens after the second wrong answer, or when the reader opens it. The record of each question
 * (data-outcome) is "first" (right the first time), "retry" (right after a wrong answer) or "shown" (the
 * solution was opened before a right answer).
 *
 * Options: each reader sees the options of a choice in an order of its own, drawn from a seed kept in this
 * browser (stable across reloads) and the question's id; the toolbar's button draws a new seed.
 *
 * Progress stays in this browser only (localStorage: one entry per page, and the reader's seed); nothing is sent
 * anywhere. A question bank (the exam page) orders its questions by a seed the reader can change, scores them
 * per topic and can ask again only the questions missed or shown. Runs once the theme has started the page
 * (document$).
 */
(function () {
  "use strict";

  var STORE = "transformer-block-math:exercises:";
  var READER = "transformer-block-math:reader";
  var state = { data: {} }; // this page's stored answers (and a bank's seed and review), as in localStorage

  function storeKey() {
    return STORE + window.location.pathname;
  }

  function readStore(key) {
    try {
      var data = JSON.parse(window.localStorage.getItem(key) || "{}");
      return data && typeof data === "object" ? data : {};
    } catch (error) {
      return {};
    }
  }

  function writeStore(key, data) {
    try {
      window.localStorage.setItem(key, JSON.stringify(data));
    } catch (error) {
      /* private mode or a full store: the page still works, it just forgets */
    }
  }

  function save(data) {
    writeStore(storeKey(), data);
  }

  // ---------------------------------------------------------------------------------------- reading a number

  // What a reader types → {value, decimals, percent, fraction} or {error: "unreadable" | "fraction"}.
  function readNumber(text) {
    var plain = String(text)
      .normalize("NFKC") // full-width digits, ＋, －, ．, ，, ％, ／ and the ideographic space
      .replace(/^[\u2212\u2012\u2013\u2014\uFE63\u30FC\uFF70]/, "-") // a minus, or ー typed for one
      .replace(/\s+/g, "");
    var percent = /%$/.test(plain);
    if (percent) plain = plain.slice(0, -1);
    var japanese = /^([+-]?)(\d+)分の(\d+)$/.exec(plain); // 8分の1
    if (japanese) plain = japanese[1] + japanese[3] + "/" + japanese[2];
    var fraction = /^([+-]?)(\d+)\/(\d+)$/.exec(plain);
    if (fraction) {
      var denominator = Number(fraction[3]);
      if (denominator === 0) return { error: "unreadable" };
      var sign = fraction[1] === "-" ? -1 : 1;
      return { value: (sign * Number(fraction[2])) / denominator, decimals: Infinity, percent: percent, fraction: true };
    }
    if (plain.indexOf(",") >= 0) {
      if (!/^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(plain)) return { error: "unreadable" };
      plain = plain.replace(/,/g, "");
    }
    if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(plain)) return { error: "unreadable" };
    var point = plain.indexOf(".");
    return {
      value: Number(plain),
      decimals: point < 0 ? 0 : plain.length - point - 1,
      percent: percent,
      fraction: false,
    };
  }

  function formOf(exercise) {
    return {
      decimals: Number(exercise.dataset.decimals || 0),
      percent: exercise.dataset.percent === "1",
      fraction: exercise.dataset.fraction === "1",
      words: exercise.dataset.form || "",
    };
  }

  // The typed value in the question's unit (a percentage question counts in %, typed with or without %).
  function inUnit(read, form) {
    if (form.percent) return read.value;
    return read.percent ? read.value / 100 : read.value;
  }

  function within(value, target, half) {
    return Math.abs(value - target) <= half * (1 + 1e-9) + 1e-15;
  }

  // {verdict: "correct" | "incorrect" | "unreadable" | "fraction", why: what is wrong with a wrong number}
  function judgeNumber(exercise, typed) {
    var form = formOf(exercise);
    var read = readNumber(typed);
    if (read.error) return { verdict: read.error };
    if (read.fraction && !form.fraction) return { verdict: "fraction" };
    var value = inUnit(read, form);
    var answer = Number(exercise.dataset.answer.replace(/,/g, "").replace("\u2212", "-"));
    var unit = Math.pow(10, -form.decimals);
    var half = unit / 2;
    if (within(value, answer, half)) return { verdict: "correct" };
    return { verdict: "incorrect", why: numberWhy(value, answer, read, form, unit) };
  }

  // How far off a wrong number is, in the question's own terms: sign, order of magnitude, rounding, size.
  function numberWhy(value, answer, read, form, unit) {
    var half = unit / 2;
    if (answer !== 0 && within(-value, answer, half)) return "符号が逆です。";
    if (answer !== 0 && value / answer > 0) {
      // off by a power of ten, give or take 2 %: a slipped point, or a fraction given for a percentage
      var shift = Math.round(Math.log10(value / answer));
      if (shift !== 0 && Math.abs(value / Math.pow(10, shift) / answer - 1) < 0.02) {
        if (form.percent && shift === -2) return "% の値ではなく割合で答えていませんか（% の値はその 100 倍です）。";
        return "桁が " + Math.abs(shift) + " つずれています（" + (shift > 0 ? "大きすぎます" : "小さすぎます") + "）。";
      }
    }
    if (!read.fraction && read.decimals < form.decimals && Math.abs(value - answer) < Math.pow(10, -read.decimals)) {
      return "桁が足りません。答えの形は「" + form.words + "」です。";
    }
    if (Math.abs(value - answer) <= unit * 1.5 * (1 + 1e-9)) {
      return (
        "惜しいです。最後の桁が違います（" +
        (form.decimals ? "小数第 " + form.decimals + " 位" : "一の位") +
        "に四捨五入しているか確かめてください）。"
      );
    }
    var sameSign = value * answer > 0;
    var ratio = sameSign ? Math.abs(value / answer) : 0;
    if (!sameSign && answer !== 0 && value !== 0) return "符号が違います。";
    if (ratio >= 10) return "大きすぎます（答えの 10 倍以上です）。";
    if (sameSign && ratio <= 0.1) return "小さすぎます（答えの 10 分の 1 以下です）。";
    return value > answer ? "大きすぎます。" : "小さすぎます。";
  }

  // ------------------------------------------------------------------------------------------ the question

  function given(exercise) {
    if (exercise.dataset.kind === "number") {
      var input = exercise.querySelector(".exercise-input");
      return input ? input.value.trim() : "";
    }
    var chosen = exercise.querySelector(".exercise-options input:checked");
    return chosen ? chosen.value : "";
  }

  function setGiven(exercise, value) {
    if (exercise.dataset.kind === "number") {
      var input = exercise.querySelector(".exercise-input");
      if (input) input.value = value;
      return;
    }
    exercise.querySelectorAll(".exercise-options input").forEach(function (radio) {
      radio.checked = radio.value === value;
    });
  }

  function optionOf(exercise, key) {
    var radio = exercise.querySelector('.exercise-options input[value="' + CSS.escape(key) + '"]');
    return radio ? radio.closest(".exercise-option") : null;
  }

  // A node's text as a screen reader gets it: KaTeX's MathML, without its visual twin.
  function spokenText(node) {
    if (!node) return "";
    var copy = node.cloneNode(true);
    copy.querySelectorAll(".katex-html, annotation, .exercise-reason").forEach(function (n) { n.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function optionText(option) {
    return spokenText(option && option.querySelector(".exercise-option-text"));
  }

  // The reason a wrong option is wrong: its line of the solution, as the page shows it (formulas typeset).
  function reasonOf(exercise, key) {
    var marker = exercise.querySelector('.exercise-reason[data-option="' + CSS.escape(key) + '"]');
    var line = marker && marker.closest("li");
    if (!line) return null;
    var reason = document.createElement("span");
    reason.className = "exercise-why";
    Array.prototype.forEach.call(line.childNodes, function (node) {
      if (node !== marker) reason.appendChild(node.cloneNode(true));
    });
    return reason;
  }

  function markOptions(exercise, chosen, settled) {
    exercise.querySelectorAll(".exercise-option").forEach(function (option) {
      option.removeAttribute("data-right");
      option.removeAttribute("data-chosen");
    });
    if (chosen === null) return;
    var picked = optionOf(exercise, chosen);
    if (picked) picked.setAttribute("data-chosen", "");
    if (settled) {
      var right = optionOf(exercise, exercise.dataset.answer);
      if (right) right.setAttribute("data-right", "");
    }
  }

  function details(exercise, which) {
    return exercise.querySelector("details.exercise-" + which);
  }

  function say(exercise, parts) {
    var feedback = exercise.querySelector(".exercise-feedback");
    if (!feedback) return;
    feedback.textContent = "";
    parts.forEach(function (part) {
      if (typeof part === "string") feedback.appendChild(document.createTextNode(part));
      else if (part) feedback.appendChild(part);
    });
  }

  function record(exercise) {
    var entry = state.data[exercise.id];
    return entry && typeof entry === "object" ? entry : null;
  }

  // Show a question as its record says (after a check, or a reload); null: as it was served.
  function show(exercise, entry) {
    var input = exercise.querySelector(".exercise-input");
    ["data-state", "data-outcome", "data-tries"].forEach(function (name) { exercise.removeAttribute(name); });
    if (entry && entry.outcome) exercise.setAttribute("data-outcome", entry.outcome); // shown before any answer too
    if (!entry || !entry.state) {
      if (exercise.dataset.kind !== "number") markOptions(exercise, null, false);
      if (input) input.removeAttribute("aria-invalid");
      say(exercise, []);
      return;
    }
    exercise.setAttribute("data-state", entry.state);
    exercise.setAttribute("data-tries", String(entry.tries || 0));
    if (input) input.setAttribute("aria-invalid", entry.state === "incorrect" ? "true" : "false");
    if (exercise.dataset.kind !== "number") {
      markOptions(exercise, entry.value, entry.state === "correct" || !!entry.outcome);
    }
  }

  function span(className, content) {
    var node = document.createElement("span");
    node.className = className;
    if (typeof content === "string") node.textContent = content;
    else if (content) node.appendChild(content);
    return node;
  }

  // Why a wrong answer is wrong: a choice's own reason (quoted from the solution), or how far off a number is.
  function why(exercise, value) {
    if (exercise.dataset.kind === "number") return span("exercise-why", judgeNumber(exercise, value).why || "");
    var reason = reasonOf(exercise, value);
    return reason || span("exercise-why", "「" + optionText(optionOf(exercise, value)) + "」は正しくありません。");
  }

  // ``next``: what the reader can do now, after a wrong answer ("" when the question is settled).
  function feedbackFor(exercise, entry, repeated, next) {
    if (entry.state === "correct") {
      if (entry.outcome === "shown") {
        return ["正解です。", span("exercise-next", "解答を開いた後の正解なので、記録は「解答を見た」です。")];
      }
      return [
        entry.outcome === "retry" ? "正解です（やり直して正解）。" : "正解です。",
        span("exercise-next", "「解答」で考え方を確かめましょう。"),
      ];
    }
    return [repeated ? "前と同じ答えです。" : "違います。", why(exercise, entry.value), next && span("exercise-next", next)];
  }

  function unreadable(exercise, verdict, value) {
    var form = formOf(exercise);
    if (verdict === "fraction") {
      return "この問題は分数ではなく小数で答えてください（答えの形は「" + form.words + "」）。";
    }
    return "「" + value + "」は数として読めません。答えの形は「" + form.words + "」です（数字で入力してください）。";
  }

  function check(exercise) {
    var value = given(exercise);
    var number = exercise.dataset.kind === "number";
    if (value === "") {
      say(exercise, [number ? "答えを入力してください。" : "選択肢を 1 つ選んでください。"]);
      return;
    }
    var verdict = number ? judgeNumber(exercise, value).verdict : value === exercise.dataset.answer ? "correct" : "incorrect";
    if (verdict === "unreadable" || verdict === "fraction") {
      say(exercise, [unreadable(exercise, verdict, value)]);
      return;
    }
    var entry = record(exercise) || { tries: 0 };
    var repeated = verdict === "incorrect" && entry.state === "incorrect" && entry.value === value;
    entry.value = value;
    entry.state = verdict;
    if (verdict === "correct") {
      entry.outcome = entry.outcome || (entry.tries ? "retry" : "first");
    } else if (!repeated) {
      entry.tries = (entry.tries || 0) + 1;
      if (entry.tries >= 2 && !entry.outcome) entry.outcome = "shown";
    }
    state.data[exercise.id] = entry;
    save(state.data);
    show(exercise, entry);
    var hint = details(exercise, "hint");
    var solution = details(exercise, "solution");
    var next = "";
    if (verdict === "incorrect" && !entry.outcome) {
      next = (hint && !hint.open ? "ヒントを開きました。" : "") + "もう一度答えてください。";
    } else if (verdict === "incorrect" && solution && !solution.open && entry.outcome === "shown") {
      next = "解答を開きました。";
    }
    say(exercise, feedbackFor(exercise, entry, repeated, next));
    if (verdict === "incorrect" && hint) hint.open = true;
    if (solution && (verdict === "correct" || entry.outcome === "shown")) solution.open = true;
    updateScores();
  }

  // The reader opened the solution before a right answer: the question is recorded as shown.
  function onSolutionToggle(exercise, solution) {
    if (!solution.open || exercise.hidden) return;
    var entry = record(exercise) || { tries: 0 };
    if (entry.outcome) return;
    entry.outcome = "shown";
    state.data[exercise.id] = entry;
    save(state.data);
    show(exercise, entry);
    updateScores();
  }

  function reset(exercise) {
    setGiven(exercise, "");
    show(exercise, null);
    exercise.querySelectorAll("details").forEach(function (d) { d.open = false; });
  }

  function exercisesOf(root) {
    return Array.prototype.slice.call(root.querySelectorAll(".exercise[data-kind]"));
  }

  // ---------------------------------------------------------------------------------------------- scores

  function tally(questions) {
    var counts = { total: questions.length, first: 0, retry: 0, shown: 0, wrong: 0, open: 0 };
    questions.forEach(function (exercise) {
      var entry = record(exercise);
      if (entry && entry.outcome === "shown") counts.shown++;
      else if (entry && entry.state === "correct") counts[entry.outcome === "retry" ? "retry" : "first"]++;
      else if (entry && entry.state === "incorrect") counts.wrong++;
      else counts.open++;
    });
    counts.right = counts.first + counts.retry;
    return counts;
  }

  function breakdown(counts) {
    var parts = [];
    if (counts.first) parts.push("1 回目で正解 " + counts.first);
    if (counts.retry) parts.push("やり直して正解 " + counts.retry);
    if (counts.shown) parts.push("解答を見た " + counts.shown);
    if (counts.wrong) parts.push("まだ不正解 " + counts.wrong);
    return parts.length ? "（" + parts.join("・") + "）" : "";
  }

  function updateScores() {
    var all = exercisesOf(document);
    var counts = tally(all);
    var text = "正解 " + counts.right + " / " + all.length + " 問" + breakdown(counts);
    document.querySelectorAll(".exercise-score").forEach(function (node) {
      if (node.textContent !== text) node.textContent = text;
    });
    document.querySelectorAll(".exercise-topic-score").forEach(function (node) {
      var topic = node.dataset.topic;
      var mine = all.filter(function (e) { return e.dataset.topic === topic; });
      var c = tally(mine);
      var weak = c.retry + c.shown + c.wrong > 0;
      var line =
        c.open === c.total
          ? c.total + " 問（未回答）"
          : "正解 " + c.right + " / " + c.total + " 問" + breakdown(c) + (weak ? "　読み直しましょう" : "");
      if (node.textContent !== line) node.textContent = line;
      var row = node.closest("tr");
      if (row) row.toggleAttribute("data-weak", weak);
    });
  }

  // ------------------------------------------------------------------------------------- seeded orders

  // mulberry32: a small seeded generator, so that one seed gives one order.
  function generator(seed) {
    var s = seed >>> 0;
    return function () {
      s = (s + 0x6d2b79f5) >>> 0;
      var t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // FNV-1a: a question's id and the reader's seed → the seed of that question's order.
  function hash(text) {
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    return h >>> 0;
  }

  function shuffle(items, random) {
    var out = items.slice();
    for (var i = out.length - 1; i > 0; i--) {
      var j = Math.floor(random() * (i + 1));
      var swap = out[i];
      out[i] = out[j];
      out[j] = swap;
    }
    return out;
  }

  function newSeed() {
    try {
      return window.crypto.getRandomValues(new Uint32Array(1))[0];
    } catch (error) {
      return Math.floor(Math.random() * 4294967296);
    }
  }

  // The reader's seed: drawn once, kept in this browser (the same options order on every visit).
  function readerSeed(redraw) {
    var stored = readStore(READER);
    if (redraw || typeof stored.seed !== "number") {
      stored.seed = newSeed();
      writeStore(READER, stored);
    }
    return stored.seed >>> 0;
  }

  // The options of one question in the reader's order: a shuffle of the served order (not of the current one).
  function orderOptions(exercise, seed) {
    var set = exercise.querySelector(".exercise-options");
    if (!set) return;
    var options = Array.prototype.slice.call(set.querySelectorAll(".exercise-option"));
    options.sort(function (a, b) { return Number(a.dataset.served) - Number(b.dataset.served); });
    shuffle(options, generator(hash(seed + ":" + exercise.id))).forEach(function (option) {
      set.appendChild(option);
    });
  }

  function orderAllOptions(seed) {
    exercisesOf(document).forEach(function (exercise) { orderOptions(exercise, seed); });
  }

  // The page's own order (as built) is shuffled, not the current one: one seed, one order, whatever came before.
  function order(bank, seed) {
    var questions = exercisesOf(document);
    if (!questions.length) return;
    questions.forEach(function (question, index) {
      if (!question.dataset.position) question.dataset.position = String(index);
    });
    questions.sort(function (a, b) { return Number(a.dataset.position) - Number(b.dataset.position); });
    var after = bank;
    shuffle(questions, generator(seed)).forEach(function (question, index) {
      after.insertAdjacentElement("afterend", question);
      after = question;
      var number = question.querySelector(".exercise-number");
      if (number) number.textContent = "問 " + (index + 1);
      var legend = question.querySelector(".exercise-legend");
      if (legend) legend.textContent = "問 " + (index + 1) + " の答えを 1 つ選ぶ";
    });
    renumberReferences();
  }

  // The table of topics links each question by its number: the numbers follow the questions' order.
  function renumberReferences() {
    document.querySelectorAll(".exercise-topic-refs").forEach(function (refs) {
      var items = Array.prototype.map.call(refs.querySelectorAll("a.exercise-ref"), function (link) {
        var target = document.getElementById(link.hash.slice(1));
        var number = target && target.querySelector(".exercise-number");
        return { link: link, n: number ? Number(number.textContent.replace(/\D+/g, "")) : 0 };
      });
      items.sort(function (a, b) { return a.n - b.n; });
      refs.textContent = "";
      items.forEach(function (item, index) {
        if (index) refs.appendChild(document.createTextNode("、"));
        item.link.textContent = "問 " + item.n;
        refs.appendChild(item.link);
      });
    });
  }

  function readSeed(input) {
    var read = readNumber(input.value);
    return read.error || read.value < 0 ? 0 : Math.floor(read.value);
  }

  // ------------------------------------------------------------------------------------------ the bank

  function inReview() {
    return Array.isArray(state.data.__review) ? state.data.__review : null;
  }

  function missed() {
    return exercisesOf(document)
      .filter(function (exercise) {
        var entry = record(exercise);
        return entry && (entry.outcome === "retry" || entry.outcome === "shown" || entry.state === "incorrect");
      })
      .map(function (exercise) { return exercise.id; });
  }

  function showReview() {
    var ids = inReview();
    exercisesOf(document).forEach(function (exercise) {
      exercise.hidden = !!ids && ids.indexOf(exercise.id) < 0;
    });
    document.querySelectorAll(".exercise-review").forEach(function (button) {
      button.hidden = false;
      button.textContent = ids ? "すべての問題に戻る" : "間違えた問題と解答を見た問題だけ解き直す";
      button.setAttribute("aria-pressed", ids ? "true" : "false");
    });
  }

  function sayReview(text) {
    document.querySelectorAll(".exercise-review-status").forEach(function (node) { node.textContent = text; });
  }

  function toggleReview() {
    if (inReview()) {
      delete state.data.__review;
      save(state.data);
      showReview();
      sayReview("すべての問題を表示しています。");
      return;
    }
    var ids = missed();
    if (!ids.length) {
      sayReview("解き直す問題はありません（間違えた問題も、解答を見た問題もありません）。");
      return;
    }
    exercisesOf(document).forEach(function (exercise) {
      if (ids.indexOf(exercise.id) < 0) return;
      var before = record(exercise);
      reset(exercise);
      state.data[exercise.id] = { tries: 0, previous: before && (before.outcome || before.state) };
    });
    state.data.__review = ids;
    save(state.data);
    showReview();
    updateScores();
    sayReview("間違えた問題と解答を見た問題 " + ids.length + " 問だけを表示しています。");
    var bank = document.querySelector(".exercise-bank");
    if (bank) bank.scrollIntoView({ block: "start" }); // its status says what is shown; the questions follow
  }

  function setUpBank(bank) {
    var input = bank.querySelector(".exercise-seed");
    var seed = typeof state.data.__seed === "number" ? state.data.__seed : readSeed(input);
    input.value = String(seed);
    order(bank, seed);
    function apply(newSeed) {
      input.value = String(newSeed);
      state.data.__seed = newSeed;
      save(state.data);
      order(bank, newSeed);
    }
    bank.querySelector(".exercise-shuffle").addEventListener("click", function () {
      apply(readSeed(input));
    });
    bank.querySelector(".exercise-reseed").addEventListener("click", function () {
      apply(Math.floor(Math.random() * 10000));
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        apply(readSeed(input));
      }
    });
    document.querySelectorAll(".exercise-review").forEach(function (button) {
      button.addEventListener("click", toggleReview);
    });
    showReview();
  }

  // ------------------------------------------------------------------------------------------ the page

  function button(className, text) {
    var node = document.createElement("button");
    node.type = "button";
    node.className = "md-button " + className;
    node.textContent = text;
    return node;
  }

  function addToolbar(questions) {
    var last = questions[questions.length - 1];
    var bar = document.createElement("div");
    bar.className = "exercise-toolbar";
    var score = document.createElement("p");
    score.className = "exercise-score";
    score.setAttribute("role", "status");
    var row = document.createElement("p");
    row.className = "exercise-bank-row";
    var reorder = button("exercise-reorder", "選択肢の順番を変える");
    var clear = button("exercise-clear", "このページの解答の記録を消す");
    var note = document.createElement("p");
    note.className = "exercise-privacy";
    note.textContent =
      "解答の記録と選択肢の並べ方はこのブラウザの中（localStorage）にだけ保存され、どこにも送られません。";
    var bank = document.querySelector(".exercise-bank");
    if (!bank) bar.appendChild(score); // a bank shows its own score above its questions
    if (document.querySelector(".exercise-options")) row.appendChild(reorder);
    row.appendChild(clear);
    bar.appendChild(row);
    bar.appendChild(note);
    (bank || last).insertAdjacentElement(bank ? "beforeend" : "afterend", bar);
    reorder.addEventListener("click", function () {
      orderAllOptions(readerSeed(true));
    });
    clear.addEventListener("click", function () {
      try {
        window.localStorage.removeItem(storeKey());
      } catch (error) {
        /* nothing stored */
      }
      state.data = {};
      exercisesOf(document).forEach(reset);
      var seed = document.querySelector(".exercise-bank .exercise-seed");
      if (seed) {
        seed.value = "1";
        order(document.querySelector(".exercise-bank"), 1);
        showReview();
        sayReview("");
      }
      updateScores();
    });
  }

  // An option that is only a formula has no name axe (or an older screen reader) computes from its <label>:
  // KaTeX's MathML is not name-from-content. Each radio is named by its option's text as spokenText reads it.
  function nameOptions(exercise) {
    exercise.querySelectorAll(".exercise-option").forEach(function (option) {
      var input = option.querySelector("input");
      var name = optionText(option);
      if (input && name) input.setAttribute("aria-label", name);
    });
  }

  // A record kept by an earlier version of this script: {value, state} only.
  function upgrade(entry) {
    if (!entry || typeof entry !== "object" || typeof entry.tries === "number") return entry;
    entry.tries = entry.state === "incorrect" ? 1 : 0;
    if (entry.state === "correct") entry.outcome = "first";
    return entry;
  }

  function setUp() {
    var questions = exercisesOf(document);
    if (!questions.length) return;
    questions.forEach(nameOptions);
    state.data = readStore(storeKey());
    var seed = readerSeed(false);
    questions.forEach(function (exercise) {
      if (exercise.dataset.ready) return;
      exercise.dataset.ready = "1";
      orderOptions(exercise, seed);
      var entry = upgrade(record(exercise));
      if (entry && typeof entry.value === "string") {
        setGiven(exercise, entry.value);
        show(exercise, entry);
        if (entry.state) {
          var again = entry.state === "incorrect" && !entry.outcome ? "もう一度答えてください。" : "";
          say(exercise, feedbackFor(exercise, entry, false, again));
        }
        if (entry.state === "incorrect" && details(exercise, "hint")) details(exercise, "hint").open = true;
        if (entry.outcome && details(exercise, "solution")) details(exercise, "solution").open = true;
      } else if (entry && entry.outcome) {
        show(exercise, entry);
      }
      exercise.querySelector(".exercise-check").addEventListener("click", function () { check(exercise); });
      exercise.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && event.target.matches(".exercise-input, .exercise-options input")) {
          event.preventDefault();
          check(exercise);
        }
      });
      var solution = details(exercise, "solution");
      if (solution) {
        solution.addEventListener("toggle", function () { onSolutionToggle(exercise, solution); });
      }
    });
    var bank = document.querySelector(".exercise-bank");
    if (bank && !bank.dataset.ready) {
      bank.dataset.ready = "1";
      setUpBank(bank);
    }
    if (!document.querySelector(".exercise-toolbar")) addToolbar(questions);
    updateScores();
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
