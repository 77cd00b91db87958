/* The variant finder (page tools/finder): questions that lead a table to the nearest
 * ruleset, what still differs, and a house rule for the differences.
 *
 * Everything it knows comes from the JSON the site's build puts into the page
 * (<script id="sw-finder-data">, made by schwimmen.spec.finder.export): the questions,
 * the words in English and German, each ruleset's values of the parameters the
 * questions ask about, and the changes the contradiction table (spec/contradictions.yaml)
 * refuses or suspects, so that the page never offers a house rule the loader refuses. The logic is the same as in schwimmen/spec/finder.py, which the
 * tests compare it with; nothing is fetched. The script does nothing on other pages.
 */
(function () {
  "use strict";

  function same(a, b) {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) {
      return a.length === b.length && a.every(function (x, i) { return same(x, b[i]); });
    }
    var ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every(function (k) {
      return Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]);
    });
  }

  function valueOf(values, param) {
    return Object.prototype.hasOwnProperty.call(values, param) ? values[param] : null;
  }

  function pick(text, lang) { return text[lang] || text.en; }

  function fillIn(template, fill) {
    return template.replace(/\{([a-z]+)\}/g, function (m, name) {
      return Object.prototype.hasOwnProperty.call(fill, name) ? fill[name] : m;
    });
  }

  function Finder(data) { this.data = data; }

  Finder.prototype.word = function (name, lang, fill) {
    return fillIn(pick(this.data.words[name], lang), fill || {});
  };

  Finder.prototype.ruleset = function (rid) {
    return this.data.rulesets.filter(function (r) { return r.id === rid; })[0];
  };

  Finder.prototype.title = function (rid, lang) { return pick(this.ruleset(rid).title, lang); };

  function answerOf(question, id) {
    return question.answers.filter(function (a) { return a.id === id; })[0] || null;
  }

  function agrees(values, answer) {
    return Object.keys(answer.values).every(function (p) {
      return same(valueOf(values, p), answer.values[p]);
    });
  }

  function matchingAnswer(question, values) {
    return question.answers.filter(function (a) { return agrees(values, a); })[0] || null;
  }

  function arises(question, values) {
    return question.answers.some(function (a) {
      return Object.keys(a.values).some(function (p) { return valueOf(values, p) !== null; });
    });
  }

  Finder.prototype.chosen = function (answers, questions) {
    var out = [];
    questions.forEach(function (q) {
      var a = answerOf(q, answers[q.id]);
      if (a) out.push([q, a]);
    });
    return out;
  };

  Finder.prototype.shownQuestions = function (answers) {
    var game = this.chosen(answers, this.data.questions.filter(function (q) { return q.decides_game; }));
    var scores = this.data.rulesets.map(function (r) {
      return game.filter(function (qa) { return agrees(r.values, qa[1]); }).length;
    });
    var best = Math.max.apply(null, scores);
    var candidates = this.data.rulesets.filter(function (r, i) { return scores[i] === best; });
    return this.data.questions.filter(function (q) {
      return q.decides_game || candidates.some(function (r) { return arises(q, r.values); });
    });
  };

  Finder.prototype.counted = function (answers) {
    return this.chosen(answers, this.shownQuestions(answers));
  };

  Finder.prototype.ranking = function (answers) {
    var pairs = this.counted(answers);
    var ranks = this.data.rulesets.map(function (r, index) {
      var game = 0, other = 0;
      pairs.forEach(function (qa) {
        if (!agrees(r.values, qa[1])) return;
        if (qa[0].decides_game) game += 1; else other += 1;
      });
      return { id: r.id, game: game, other: other, index: index };
    });
    ranks.sort(function (a, b) { return (b.game - a.game) || (b.other - a.other) || (a.index - b.index); });
    return ranks;
  };

  Finder.prototype.nearest = function (answers) {
    var ranks = this.ranking(answers);
    return ranks.filter(function (k) {
      return k.game === ranks[0].game && k.other === ranks[0].other;
    }).map(function (k) { return k.id; });
  };

  Finder.prototype.applies = function (param, values) {
    return (this.data.conditions[param] || []).every(function (cond) {
      var value = valueOf(values, cond.param);
      if (value === null) return false;
      var inside = cond.values.some(function (v) { return same(v, value); });
      return inside !== cond.negate;
    });
  };

  Finder.prototype.houseRuleChanges = function (rid, answers) {
    var base = this.ruleset(rid).values, self = this;
    var changes = {}, dropped = {};
    this.counted(answers).forEach(function (qa) {
      var q = qa[0], a = qa[1];
      if (q.decides_game || agrees(base, a)) return;
      Object.keys(a.values).forEach(function (p) {
        if (!same(valueOf(base, p), a.values[p])) {
          changes[p] = { param: p, value: a.values[p], question: q.id, answer: a.id };
        }
      });
    });
    for (;;) {
      var merged = Object.assign({}, base);
      Object.keys(changes).forEach(function (p) { merged[p] = changes[p].value; });
      var out = Object.keys(changes).filter(function (p) { return !self.applies(p, merged); });
      if (!out.length) break;
      out.forEach(function (p) { dropped[changes[p].question] = true; delete changes[p]; });
    }
    var order = this.data.order;
    var list = Object.keys(changes).map(function (p) { return changes[p]; });
    list.sort(function (a, b) { return order.indexOf(a.param) - order.indexOf(b.param); });
    return { changes: list, dropped: dropped };
  };

  Finder.prototype.differences = function (rid, answers) {
    var values = this.ruleset(rid).values;
    var dropped = this.houseRuleChanges(rid, answers).dropped;
    return this.counted(answers).filter(function (qa) {
      return !agrees(values, qa[1]);
    }).map(function (qa) {
      var q = qa[0], theirs = matchingAnswer(q, values);
      return {
        question: q.id,
        answer: qa[1].id,
        theirs: theirs ? theirs.id : null,
        arises: arises(q, values),
        note: q.decides_game ? "game-note" : (dropped[q.id] ? "dropped-note" : null),
      };
    });
  };

  Finder.prototype.clash = function (rid, answers) {
    var data = this.data, values = {};
    this.houseRuleChanges(rid, answers).changes.forEach(function (c) { values[c.param] = c; });
    var has = function (p) { return Object.prototype.hasOwnProperty.call(values, p); };
    var kinds = ["refused", "suspected"];
    for (var k = 0; k < kinds.length; k++) {
      var entries = data[kinds[k]] || [];
      for (var i = 0; i < entries.length; i++) {
        var entry = entries[i];
        if (entry.base !== rid || entry["with"].some(has)) continue;
        var params = Object.keys(entry.set);
        var made = params.filter(function (p) { return has(p) && same(values[p].value, entry.set[p]); });
        if (made.length !== params.length) continue;
        var asked = {};
        made.forEach(function (p) { asked[values[p].question] = true; });
        var ids = data.questions.filter(function (q) { return asked[q.id]; }).map(function (q) { return q.id; });
        return { kind: kinds[k], questions: ids };
      }
    }
    return null;
  };

  Finder.prototype.clashText = function (rid, found, lang) {
    var data = this.data;
    var asked = found.questions.map(function (id) {
      return pick(data.questions.filter(function (q) { return q.id === id; })[0].text, lang);
    }).join(" ");
    return this.word(found.kind, lang, { questions: asked, ruleset: this.title(rid, lang) });
  };

  function yamlValue(value) {
    if (Array.isArray(value)) return "[" + value.map(yamlValue).join(", ") + "]";
    if (value !== null && typeof value === "object") {
      return "{" + Object.keys(value).map(function (k) {
        return JSON.stringify(k) + ": " + yamlValue(value[k]);
      }).join(", ") + "}";
    }
    return JSON.stringify(value);
  }

  Finder.prototype.fileName = function (lang) { return this.word("file-id", lang) + ".yaml"; };

  Finder.prototype.houseRuleYaml = function (rid, answers, lang) {
    var changes = this.houseRuleChanges(rid, answers).changes;
    if (!changes.length) return null;
    var found = this.clash(rid, answers);
    if (found && found.kind === "refused") return null;
    var self = this, name = this.fileName(lang);
    var lines = [
      "# " + this.word("file-comment", lang, { file: name }),
      "id: " + this.word("file-id", lang),
      "kind: house-rule",
      "title: " + yamlValue(this.word("file-title", lang)),
      "summary: " + yamlValue(this.word("file-summary", lang, { ruleset: this.title(rid, lang) })),
      "origin: " + rid,
      "rules:",
    ];
    var group = null;
    changes.forEach(function (change) {
      var dot = change.param.indexOf(".");
      var head = change.param.slice(0, dot), param = change.param.slice(dot + 1);
      if (head !== group) { lines.push("  " + head + ":"); group = head; }
      var q = self.data.questions.filter(function (x) { return x.id === change.question; })[0];
      var a = answerOf(q, change.answer);
      var why = self.word("file-why", lang, { question: pick(q.text, lang), answer: pick(a.text, lang) });
      lines.push("    " + param + ":", "      value: " + yamlValue(change.value),
        "      default:", "        why: " + yamlValue(why));
    });
    return lines.join("\n") + "\n";
  };

  /* ------------------------------------------------------------------ the page */

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) {
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  function Widget(root, finder, lang) {
    this.root = root;
    this.finder = finder;
    this.lang = lang;
    this.answers = {};
    this.selected = null;
  }

  Widget.prototype.w = function (name, fill) { return this.finder.word(name, this.lang, fill); };

  Widget.prototype.build = function () {
    var self = this, data = this.finder.data;
    this.root.textContent = "";
    var form = el("form", { class: "sw-finder__questions" });
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    this.fieldsets = {};
    data.questions.forEach(function (q) {
      var box = el("fieldset", { class: "sw-finder__question", "data-question": q.id });
      box.appendChild(el("legend", { text: pick(q.text, self.lang) }));
      if (q.help) box.appendChild(el("p", { class: "sw-finder__help", text: pick(q.help, self.lang) }));
      var options = [{ id: "", text: self.w("skip") }].concat(q.answers.map(function (a) {
        return { id: a.id, text: pick(a.text, self.lang) };
      }));
      options.forEach(function (o) {
        var input = el("input", { type: "radio", name: "sw-finder-" + q.id, value: o.id });
        if (o.id === "") { input.checked = true; }
        input.addEventListener("change", function () {
          if (o.id) self.answers[q.id] = o.id; else delete self.answers[q.id];
          self.selected = null;
          self.update();
        });
        box.appendChild(el("label", { class: o.id ? "sw-finder__answer" : "sw-finder__answer sw-finder__skip" }, [input, " " + o.text]));
      });
      self.fieldsets[q.id] = box;
      form.appendChild(box);
    });
    var clear = el("button", { type: "button", class: "md-button sw-finder__clear", text: this.w("clear") });
    clear.addEventListener("click", function () {
      form.reset();
      self.answers = {};
      self.selected = null;
      self.update();
    });
    form.appendChild(clear);
    this.result = el("section", { class: "sw-finder__result", "aria-live": "polite" });
    this.root.appendChild(form);
    this.root.appendChild(this.result);
    this.update();
  };

  Widget.prototype.rulesetLink = function (rid) {
    var r = this.finder.ruleset(rid);
    return el("a", { href: r.url, text: this.finder.title(rid, this.lang) });
  };

  Widget.prototype.pickButton = function (rank, total, current) {
    var self = this, r = this.finder.ruleset(rank.id);
    var button = el("button", {
      type: "button",
      class: "sw-finder__pick" + (rank.id === current ? " sw-finder__pick--current" : ""),
      "data-ruleset": rank.id,
      "aria-pressed": String(rank.id === current),
    }, [el("span", { class: "sw-finder__pick-title", text: this.finder.title(rank.id, this.lang) }),
      el("span", { class: "sw-finder__pick-score", text: this.w("agrees", { n: String(rank.game + rank.other), m: String(total) }) })]);
    button.addEventListener("click", function () { self.selected = rank.id; self.update(); });
    return button;
  };

  Widget.prototype.update = function () {
    var self = this, finder = this.finder, answers = this.answers;
    var shown = finder.shownQuestions(answers).map(function (q) { return q.id; });
    Object.keys(this.fieldsets).forEach(function (qid) {
      self.fieldsets[qid].hidden = shown.indexOf(qid) < 0;
    });
    var out = this.result;
    out.textContent = "";
    out.appendChild(el("p", { class: "sw-finder__heading", text: this.w("result") }));
    var total = finder.counted(answers).length;
    if (!total) {
      out.appendChild(el("p", { class: "sw-finder__start", text: this.w("start") }));
      return;
    }
    var ranks = finder.ranking(answers);
    var top = finder.nearest(answers);
    var current = this.selected || top[0];
    var rank = ranks.filter(function (k) { return k.id === current; })[0];
    if (top.length > 1) {
      out.appendChild(el("p", { text: this.w("tied") }));
      out.appendChild(el("div", { class: "sw-finder__tied" }, top.map(function (rid) {
        return self.pickButton(ranks.filter(function (k) { return k.id === rid; })[0], total, current);
      })));
    }
    var title = finder.title(current, this.lang);
    out.appendChild(el("p", { class: "sw-finder__nearest", "data-ruleset": current }, [
      el("strong", {}, [this.rulesetLink(current)]), " · ",
      this.w("agrees", { n: String(rank.game + rank.other), m: String(total) }),
    ]));
    this.showDifferences(out, current, title);
    this.showHouseRule(out, current, title);
    var all = el("details", { class: "sw-finder__ranking" }, [el("summary", { text: this.w("ranking") })]);
    all.appendChild(el("div", {}, ranks.map(function (k) { return self.pickButton(k, total, current); })));
    out.appendChild(all);
  };

  Widget.prototype.showDifferences = function (out, rid, title) {
    var self = this, finder = this.finder, lang = this.lang;
    var diffs = finder.differences(rid, this.answers);
    if (!diffs.length) {
      out.appendChild(el("p", { class: "sw-finder__same", text: this.w("same", { ruleset: title }) }));
      return;
    }
    out.appendChild(el("p", { text: this.w("differences", { ruleset: title }) }));
    var list = el("ul", { class: "sw-finder__differences" });
    diffs.forEach(function (d) {
      var q = finder.data.questions.filter(function (x) { return x.id === d.question; })[0];
      var theirs = d.theirs ? pick(answerOf(q, d.theirs).text, lang)
        : self.w(d.arises ? "other-rule" : "not-applicable");
      var item = el("li", { "data-question": q.id }, [
        el("strong", { text: pick(q.text, lang) }),
        el("span", { class: "sw-finder__yours" }, [el("em", { text: self.w("yours") }), " " + pick(answerOf(q, d.answer).text, lang)]),
        el("span", { class: "sw-finder__theirs" }, [el("em", { text: self.w("theirs", { ruleset: title }) }), " " + theirs]),
      ]);
      if (d.note) item.appendChild(el("span", { class: "sw-finder__note", text: self.w(d.note, { ruleset: title }) }));
      list.appendChild(item);
    });
    out.appendChild(list);
  };

  // A clash is shown as the theme's admonition (mkdocs-material, the look of "!!! failure"
  // and "!!! warning" with the title removed): a refusal as a failure, a suspicion as a
  // warning, so that it reads as the site's other cautions do.
  var ADMONITION = { refused: "failure", suspected: "warning" };

  Widget.prototype.showHouseRule = function (out, rid, title) {
    var found = this.finder.clash(rid, this.answers);
    if (found) {
      out.appendChild(el("div", {
        class: "admonition " + ADMONITION[found.kind] + " sw-finder__clash sw-finder__" + found.kind,
        role: "note",
      }, [el("p", { text: this.finder.clashText(rid, found, this.lang) })]));
    }
    var text = this.finder.houseRuleYaml(rid, this.answers, this.lang);
    if (text === null) return;
    var name = this.finder.fileName(this.lang);
    out.appendChild(el("p", { text: this.w("house-rule", { ruleset: title }) }));
    out.appendChild(el("pre", { class: "sw-finder__yaml" }, [el("code", { text: text })]));
    out.appendChild(el("p", { class: "sw-finder__help", text: this.w("house-rule-help", { file: name, origin: rid }) }));
    var button = el("button", { type: "button", class: "md-button md-button--primary sw-finder__download", text: this.w("download", { file: name }) });
    button.addEventListener("click", function () {
      var url = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
      var link = el("a", { href: url, download: name });
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    });
    out.appendChild(button);
  };

  function start() {
    var root = document.getElementById("sw-finder");
    var source = document.getElementById("sw-finder-data");
    if (!root || !source) return;
    var finder = new Finder(JSON.parse(source.textContent));
    var lang = (document.documentElement.lang || "en").slice(0, 2).toLowerCase();
    if (!finder.data.words["skip"][lang]) lang = "en";
    window.schwimmenFinder = finder;
    new Widget(root, finder, lang).build();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
