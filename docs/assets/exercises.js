/* 確認問題: checking a reader's answer against the one the build computed (transformer_site.exercises.html).
 *
 * Nothing is computed here: each question carries its answer (data-answer: a number's literal, or the key of
 * the right option). A number is right when it lies within half a unit of the literal's last digit (the
 * literal 0.652 accepts 0.6515 … 0.6525 and refuses 0.653). After a check the question gets
 * data-state="correct" or "incorrect", the feedback says which, and the solution opens.
 *
 * Progress stays in this browser only (localStorage, one entry per page; the page's button clears it); nothing
 * is sent anywhere. A question bank (the exam page) orders its questions by a seed the reader can change.
 * Runs again after each of Material's instant navigations (document$).
 */
(function () {
  "use strict";

  var STORE = "transformer-block-math:exercises:";
  var FULL_WIDTH = /[\uFF10-\uFF19\uFF0B\uFF0D\uFF0E\uFF0C]/g;
  var NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
  var state = { data: {} }; // this page's stored answers (and a bank's seed), as in localStorage

  function storeKey() {
    return STORE + window.location.pathname;
  }

  function load() {
    try {
      var data = JSON.parse(window.localStorage.getItem(storeKey()) || "{}");
      return data && typeof data === "object" ? data : {};
    } catch (error) {
      return {};
    }
  }

  function save(data) {
    try {
      window.localStorage.setItem(storeKey(), JSON.stringify(data));
    } catch (error) {
      /* private mode or a full store: the page still works, it just forgets */
    }
  }

  // What a reader types → a number: full-width digits, U+2212 minus, spaces and thousands separators allowed.
  function readNumber(text) {
    var plain = String(text)
      .replace(FULL_WIDTH, function (ch) {
        return String.fromCharCode(ch.charCodeAt(0) - 0xfee0);
      })
      .replace(/[\u2212\u2012\u2013\uFE63]/g, "-")
      .replace(/[\s,_]/g, "");
    return NUMBER.test(plain) ? Number(plain) : NaN;
  }

  function decimalsOf(literal) {
    var point = literal.indexOf(".");
    return point < 0 ? 0 : literal.length - point - 1;
  }

  function numberIsRight(typed, literal) {
    var value = readNumber(typed);
    if (isNaN(value)) return null;
    var half = 0.5 * Math.pow(10, -decimalsOf(literal));
    return Math.abs(value - readNumber(literal)) <= half * (1 + 1e-9);
  }

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

  // The option's text as a screen reader gets it: KaTeX's MathML, without its visual twin.
  function optionText(option) {
    var text = option && option.querySelector(".exercise-option-text");
    if (!text) return "";
    var copy = text.cloneNode(true);
    copy.querySelectorAll(".katex-html, annotation").forEach(function (node) { node.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  function markOptions(exercise, chosen) {
    exercise.querySelectorAll(".exercise-option").forEach(function (option) {
      option.removeAttribute("data-right");
      option.removeAttribute("data-chosen");
    });
    if (chosen === null) return;
    var right = optionOf(exercise, exercise.dataset.answer);
    if (right) right.setAttribute("data-right", "");
    var picked = optionOf(exercise, chosen);
    if (picked) picked.setAttribute("data-chosen", "");
  }

  function show(exercise, state, value) {
    var feedback = exercise.querySelector(".exercise-feedback");
    var input = exercise.querySelector(".exercise-input");
    if (exercise.dataset.kind !== "number") markOptions(exercise, state ? value : null);
    if (!state) {
      exercise.removeAttribute("data-state");
      if (feedback) feedback.textContent = "";
      if (input) input.removeAttribute("aria-invalid");
      return;
    }
    exercise.setAttribute("data-state", state);
    if (input) input.setAttribute("aria-invalid", state === "incorrect" ? "true" : "false");
    if (feedback) {
      if (state === "correct") {
        feedback.textContent = "正解です。下の「解答」で考え方を確かめましょう。";
      } else if (exercise.dataset.kind === "number") {
        var read = readNumber(value);
        feedback.textContent = isNaN(read)
          ? "「" + value + "」は数として読めません。解答を開きました。"
          : "違います（" + value + "）。解答を開きました。";
      } else {
        var right = optionText(optionOf(exercise, exercise.dataset.answer));
        feedback.textContent = "違います。正解は「" + right + "」（緑の枠）です。解答を開きました。";
      }
    }
    var solution = exercise.querySelector("details.exercise-solution");
    if (solution) solution.open = true;
  }

  function check(exercise, data) {
    var value = given(exercise);
    var feedback = exercise.querySelector(".exercise-feedback");
    if (value === "") {
      if (feedback) {
        feedback.textContent = exercise.dataset.kind === "number" ? "答えを入力してください。" : "選択肢を 1 つ選んでください。";
      }
      return;
    }
    var right =
      exercise.dataset.kind === "number" ? numberIsRight(value, exercise.dataset.answer) : value === exercise.dataset.answer;
    var state = right ? "correct" : "incorrect";
    show(exercise, state, value);
    data[exercise.id] = { value: value, state: state };
    save(data);
    updateScore();
  }

  function exercisesOf(root) {
    return Array.prototype.slice.call(root.querySelectorAll(".exercise[data-kind]"));
  }

  function updateScore() {
    var all = exercisesOf(document);
    var correct = all.filter(function (e) { return e.dataset.state === "correct"; }).length;
    var checked = all.filter(function (e) { return e.dataset.state; }).length;
    var text = "正解 " + correct + " / " + all.length + " 問（確かめた " + checked + " 問）";
    document.querySelectorAll(".exercise-score").forEach(function (node) {
      if (node.textContent !== text) node.textContent = text;
    });
  }

  // mulberry32: a small seeded generator, so that one seed gives every reader the same order.
  function generator(seed) {
    var state = seed >>> 0;
    return function () {
      state = (state + 0x6d2b79f5) >>> 0;
      var t = state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  // The page's own order (as built) is shuffled, not the current one: one seed, one order, whatever came before.
  function order(bank, seed) {
    var questions = exercisesOf(document);
    if (!questions.length) return;
    questions.forEach(function (question, index) {
      if (!question.dataset.position) question.dataset.position = String(index);
    });
    questions.sort(function (a, b) { return Number(a.dataset.position) - Number(b.dataset.position); });
    var random = generator(seed);
    var shuffled = questions.slice();
    for (var i = shuffled.length - 1; i > 0; i--) {
      var j = Math.floor(random() * (i + 1));
      var swap = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = swap;
    }
    var after = bank;
    shuffled.forEach(function (question, index) {
      after.insertAdjacentElement("afterend", question);
      after = question;
      var number = question.querySelector(".exercise-number");
      if (number) number.textContent = "問 " + (index + 1);
      var legend = question.querySelector(".exercise-legend");
      if (legend) legend.textContent = "問 " + (index + 1) + " の答えを 1 つ選ぶ";
    });
  }

  function readSeed(input) {
    var seed = readNumber(input.value);
    return isNaN(seed) || seed < 0 ? 0 : Math.floor(seed);
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
  }

  function addToolbar(questions) {
    var last = questions[questions.length - 1];
    var bar = document.createElement("div");
    bar.className = "exercise-toolbar";
    var score = document.createElement("p");
    score.className = "exercise-score";
    score.setAttribute("role", "status");
    var clear = document.createElement("button");
    clear.type = "button";
    clear.className = "md-button exercise-clear";
    clear.textContent = "このページの解答の記録を消す";
    var note = document.createElement("p");
    note.className = "exercise-privacy";
    note.textContent = "解答の記録はこのブラウザの中（localStorage）にだけ保存され、どこにも送られません。";
    var bank = document.querySelector(".exercise-bank");
    if (!bank) bar.appendChild(score); // a bank shows its own score above its questions
    bar.appendChild(clear);
    bar.appendChild(note);
    (bank || last).insertAdjacentElement(bank ? "beforeend" : "afterend", bar);
    clear.addEventListener("click", function () {
      try {
        window.localStorage.removeItem(storeKey());
      } catch (error) {
        /* nothing stored */
      }
      exercisesOf(document).forEach(function (exercise) {
        setGiven(exercise, "");
        show(exercise, null);
        exercise.querySelectorAll("details").forEach(function (details) { details.open = false; });
      });
      var seed = document.querySelector(".exercise-bank .exercise-seed");
      if (seed) {
        seed.value = "1";
        order(document.querySelector(".exercise-bank"), 1);
      }
      state.data = {};
      updateScore();
    });
  }

  // An option that is only a formula has no name axe (or an older screen reader) computes from its <label>:
  // KaTeX's MathML is not name-from-content. Each radio is named by its option's text as optionText reads it.
  function nameOptions(exercise) {
    exercise.querySelectorAll(".exercise-option").forEach(function (option) {
      var input = option.querySelector("input");
      var name = optionText(option);
      if (input && name) input.setAttribute("aria-label", name);
    });
  }

  function setUp() {
    var questions = exercisesOf(document);
    if (!questions.length) return;
    questions.forEach(nameOptions);
    var data = load();
    state.data = data;
    questions.forEach(function (exercise) {
      if (exercise.dataset.ready) return;
      exercise.dataset.ready = "1";
      var saved = data[exercise.id];
      if (saved && typeof saved.value === "string") {
        setGiven(exercise, saved.value);
        if (saved.state === "correct" || saved.state === "incorrect") show(exercise, saved.state, saved.value);
      }
      var button = exercise.querySelector(".exercise-check");
      button.addEventListener("click", function () { check(exercise, state.data); });
      exercise.addEventListener("keydown", function (event) {
        if (event.key === "Enter" && event.target.matches(".exercise-input, .exercise-options input")) {
          event.preventDefault();
          check(exercise, state.data);
        }
      });
    });
    var bank = document.querySelector(".exercise-bank");
    if (bank && !bank.dataset.ready) {
      bank.dataset.ready = "1";
      setUpBank(bank);
    }
    if (!document.querySelector(".exercise-toolbar")) addToolbar(questions);
    updateScore();
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
