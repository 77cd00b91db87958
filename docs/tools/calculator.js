// The hand calculator (tools/calculator/): pick cards, see what the hand is worth under
// every ruleset and house rule, and with several hands who loses the showdown.
//
// This script evaluates no hand. The reference engine valued every hand of every ruleset
// when the site was built (schwimmen.docsgen.calculator); the script only finds the
// hand's number in those tables and reads its value. Who loses compares the exported
// ranks (the place of the engine's comparison key), following the engine's showdown
// (Round.showdown_losses) with each ruleset's exported showdown parameters; the tests
// compare its answers with the engine's. Words come from the tables file, in the page's
// language. Nothing is fetched from elsewhere.
(function () {
  "use strict";

  var root = document.querySelector(".schwimmen-calculator");
  if (!root) {
    return;
  }
  var language = (document.documentElement.lang || "en").slice(0, 2);
  var metaUrl = new URL(root.getAttribute("data-tables"), document.baseURI);
  var SYMBOL = { C: "\u2663", S: "\u2660", H: "\u2665", D: "\u2666" };
  var SUIT_WORD = { C: "suit-clubs", S: "suit-spades", H: "suit-hearts", D: "suit-diamonds" };

  var meta = null;
  var words = {};
  var handStrings = {}; // hand size -> {table number: string}
  var loading = {}; // hand size -> promise
  var state = { hands: [[]], active: 0 };
  var maxCards = 3;

  function say(key, vars) {
    var shown = words[key] || key;
    Object.keys(vars || {}).forEach(function (name) {
      shown = shown.split("{" + name + "}").join(String(vars[name]));
    });
    return shown;
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  // A card as the page's language writes it: German players write B (Bube), D (Dame),
  // K (König), A (Ass); the words file gives each letter ("rank-j", ...).
  function pretty(card) {
    var rank = card.slice(0, -1);
    var letter = words["rank-" + rank.toLowerCase()];
    return (letter || rank) + SYMBOL[card.slice(-1)];
  }

  function suitClass(card) {
    var suit = card.slice(-1);
    return suit === "H" || suit === "D" ? "calc-red" : "calc-black";
  }

  // ---------------------------------------------------------------- looking hands up
  function binomial(n, k) {
    var out = 1;
    for (var i = 1; i <= k; i++) {
      out = (out * (n - k + i)) / i;
    }
    return out;
  }

  // The table's value of ``cards``, or null when they are no hand of the table (wrong
  // number of cards, a card not in its pack) or its hands are not loaded yet.
  function lookup(number, cards) {
    var table = meta.tables[number];
    if (cards.length !== table.size) {
      return null;
    }
    var positions = [];
    for (var i = 0; i < cards.length; i++) {
      var position = table.position[cards[i]];
      if (position === undefined) {
        return null;
      }
      positions.push(position);
    }
    var strings = handStrings[table.size];
    if (!strings) {
      return undefined;
    }
    positions.sort(function (a, b) {
      return a - b;
    });
    var index = 0;
    positions.forEach(function (p, k) {
      index += binomial(p, k + 1);
    });
    var text = strings[String(number)];
    var value = 0;
    for (var d = 0; d < table.width; d++) {
      value = value * meta.digits.length + meta.digits.indexOf(text.charAt(index * table.width + d));
    }
    var entry = table.values[value];
    return { points: entry[0], kind: entry[1], suit: entry[2], rank: entry[3], flags: entry[4] };
  }

  // Who loses when the hands are compared (every value known): the engine's steps.
  function showdown(rules, values) {
    var flags = meta.flags;
    var seats = values.map(function (_, i) {
      return i;
    });
    if (values.some(function (v) { return v.flags & flags.punishes; })) {
      return {
        losers: seats.filter(function (s) { return !(values[s].flags & flags.special); }),
        why: "why-punished",
      };
    }
    if (rules.completeTieNobodyLoses) {
      var first = values[0].points;
      if (values.every(function (v) { return v.points === first; })) {
        return { losers: [], why: "why-complete-tie" };
      }
    }
    var candidates = seats.filter(function (s) { return !(values[s].flags & flags.protected); });
    if (!candidates.length) {
      return { losers: [], why: "why-all-protected" };
    }
    var pool = rules.protectedCountForLowest ? seats : candidates;
    var low = Math.min.apply(null, pool.map(function (s) { return values[s].rank; }));
    var losers = candidates.filter(function (s) { return values[s].rank === low; });
    if (!losers.length) {
      return { losers: [], why: "why-lowest-protected" };
    }
    var why = losers.length > 1 && rules.lastToReachLoses ? "why-last-to-reach" : null;
    return { losers: losers, why: why };
  }

  // Exposed for the browser test, which compares these answers with the engine's.
  window.schwimmenCalculator = {
    ready: false,
    lookup: function (ruleset, cards) {
      var found = meta.rulesets.filter(function (r) { return r.id === ruleset; })[0];
      return lookup(found.table, cards);
    },
    showdown: function (ruleset, hands) {
      var found = meta.rulesets.filter(function (r) { return r.id === ruleset; })[0];
      var values = hands.map(function (cards) { return lookup(found.table, cards); });
      var result = showdown(found.showdown, values);
      result.lives = found.showdown.lives;
      return result;
    },
    load: function (size) {
      return loadHands(size);
    },
  };

  // ---------------------------------------------------------------- showing values
  function pointsText(points) {
    if (points === null) {
      return "";
    }
    var whole = Math.floor(points);
    return points === whole ? String(whole) : whole + "\u00bd";
  }

  function valueCell(value) {
    var cell = el("td", { class: "calc-value" });
    var main;
    if (value.kind === "suit") {
      main = el("span", { title: say(SUIT_WORD[value.suit]) }, [
        pointsText(value.points) + " ",
        el("span", { class: value.suit === "H" || value.suit === "D" ? "calc-red" : "calc-black" }, [
          SYMBOL[value.suit],
        ]),
      ]);
    } else if (value.kind === "feuer") {
      var shown = pointsText(value.points);
      // Feuer without points is worth more than any hand, which the words say.
      main = el("span", {}, [shown ? say("kind-feuer") + " (" + shown + ")" : say("kind-feuer-top")]);
    } else if (value.kind === "feuer-light") {
      main = el("span", {}, [say("kind-feuer-light")]);
    } else {
      main = el("span", {}, [pointsText(value.points) + " " + say("kind-" + value.kind)]);
    }
    cell.appendChild(main);
    ["maximum", "protected", "punishes"].forEach(function (mark) {
      if (value.flags & meta.flags[mark]) {
        cell.appendChild(el("span", { class: "calc-mark" }, [say("mark-" + mark)]));
      }
    });
    cell.setAttribute("data-points", value.points === null ? "" : String(value.points));
    cell.setAttribute("data-kind", value.kind);
    cell.setAttribute("data-suit", value.suit || "");
    cell.setAttribute("data-flags", String(value.flags));
    return cell;
  }

  function losersCell(result, lives) {
    var cell = el("td", { class: "calc-loses" });
    cell.setAttribute("data-losers", result.losers.join(","));
    var names = result.losers.map(function (s) {
      var seat = say("hand", { n: s + 1 });
      return say(lives === 1 ? "lives-one" : "lives-more", { seat: seat, lives: lives });
    });
    cell.appendChild(el("span", {}, [names.length ? names.join(", ") : say("nobody")]));
    if (result.why) {
      cell.appendChild(el("span", { class: "calc-why" }, [say(result.why)]));
    }
    return cell;
  }

  // ---------------------------------------------------------------- the widget
  function usedBy(card) {
    for (var i = 0; i < state.hands.length; i++) {
      if (state.hands[i].indexOf(card) >= 0) {
        return i;
      }
    }
    return -1;
  }

  function toggle(card) {
    var hand = state.hands[state.active];
    var at = hand.indexOf(card);
    if (at >= 0) {
      hand.splice(at, 1);
    } else if (usedBy(card) < 0 && hand.length < maxCards) {
      hand.push(card);
    }
    render();
  }

  function handsBlock() {
    var block = el("div", { class: "calc-hands" });
    state.hands.forEach(function (hand, i) {
      var box = el("div", {
        class: "calc-hand" + (i === state.active ? " calc-active" : ""),
        "data-hand": String(i),
      });
      var head = el("button", { type: "button", class: "calc-hand-name" }, [say("hand", { n: i + 1 })]);
      head.addEventListener("click", function () {
        state.active = i;
        render();
      });
      box.appendChild(head);
      var chips = el("span", { class: "calc-chips" });
      if (!hand.length) {
        chips.appendChild(el("span", { class: "calc-empty" }, [say("hand-empty")]));
      }
      hand.forEach(function (card) {
        var chip = el(
          "button",
          {
            type: "button",
            class: "calc-chip " + suitClass(card),
            "aria-label": say("remove-card", { card: pretty(card) }),
            title: say("remove-card", { card: pretty(card) }),
          },
          [pretty(card)]
        );
        chip.addEventListener("click", function () {
          state.active = i;
          toggle(card);
        });
        chips.appendChild(chip);
      });
      box.appendChild(chips);
      if (state.hands.length > 1) {
        var remove = el("button", { type: "button", class: "calc-remove", title: say("remove-hand"), "aria-label": say("remove-hand") }, ["\u00d7"]);
        remove.addEventListener("click", function () {
          state.hands.splice(i, 1);
          state.active = Math.min(state.active, state.hands.length - 1);
          render();
        });
        box.appendChild(remove);
      }
      block.appendChild(box);
    });
    var actions = el("div", { class: "calc-actions" });
    var add = el("button", { type: "button", class: "md-button calc-add" }, [say("add-hand")]);
    add.addEventListener("click", function () {
      state.hands.push([]);
      state.active = state.hands.length - 1;
      render();
    });
    var clear = el("button", { type: "button", class: "md-button calc-clear" }, [say("clear")]);
    clear.addEventListener("click", function () {
      state.hands = [[]];
      state.active = 0;
      render();
    });
    actions.appendChild(add);
    actions.appendChild(clear);
    block.appendChild(actions);
    return block;
  }

  function picker() {
    var grid = el("div", {
      class: "calc-picker",
      role: "group",
      "aria-label": say("pick", { n: state.active + 1 }),
    });
    var hand = state.hands[state.active];
    meta.suits.forEach(function (suit) {
      meta.ranks.forEach(function (rank) {
        var card = rank + suit;
        var owner = usedBy(card);
        var button = el(
          "button",
          {
            type: "button",
            class: "calc-card " + suitClass(card),
            "data-card": card,
            "aria-pressed": owner === state.active ? "true" : "false",
            title: pretty(card),
          },
          [pretty(card)]
        );
        if ((owner >= 0 && owner !== state.active) || (owner < 0 && hand.length >= maxCards)) {
          button.disabled = true;
        }
        button.addEventListener("click", function () {
          toggle(card);
        });
        grid.appendChild(button);
      });
    });
    return grid;
  }

  function results() {
    var sizes = {};
    state.hands.forEach(function (hand) {
      if (meta.hands[String(hand.length)]) {
        sizes[hand.length] = true;
      }
    });
    var wanted = Object.keys(sizes);
    if (!wanted.length) {
      return el("p", { class: "calc-hint" }, [say("pick-more")]);
    }
    var missing = wanted.filter(function (size) { return !handStrings[size]; });
    if (missing.length) {
      missing.forEach(function (size) {
        loadHands(size).then(render, failed);
      });
      return el("p", { class: "calc-status" }, [say("loading")]);
    }
    var bases = meta.rulesets.filter(function (r) { return r.base === r.id; });
    var out = el("div", { class: "calc-results" }, [resultTable(bases)]);
    bases.forEach(function (base) {
      var house = meta.rulesets.filter(function (r) { return r.base === base.id && r !== base; });
      if (!house.length) {
        return;
      }
      var fold = el("details", { class: "calc-house", "data-base": base.id }, [
        el("summary", {}, [say("house-rules", { ruleset: nameOf(base), n: house.length })]),
        resultTable(house),
      ]);
      if (openGroups[base.id]) {
        fold.open = true;
      }
      fold.addEventListener("toggle", function () { openGroups[base.id] = fold.open; });
      out.appendChild(fold);
    });
    return out;
  }

  // The ten rulesets come first; each ruleset's house rules follow, folded, in a table of
  // their own (folds the reader opened stay open when the hands change).
  var openGroups = {};

  function nameOf(ruleset) {
    return (ruleset.names && (ruleset.names[language] || ruleset.names.en)) || ruleset.id;
  }

  function resultTable(rulesets) {
    var several = state.hands.length > 1;
    var head = el("tr", {}, [el("th", {}, [say("ruleset")])]);
    state.hands.forEach(function (_, i) {
      head.appendChild(el("th", {}, [say("hand", { n: i + 1 })]));
    });
    if (several) {
      head.appendChild(el("th", {}, [say("loses")]));
    }
    var body = el("tbody");
    rulesets.forEach(function (ruleset) {
      var row = el("tr", { "data-ruleset": ruleset.id });
      row.appendChild(el("th", { scope: "row", class: "calc-ruleset", title: ruleset.id }, [nameOf(ruleset)]));
      var values = state.hands.map(function (hand) {
        return lookup(ruleset.table, hand);
      });
      values.forEach(function (value, i) {
        var cell = value ? valueCell(value) : el("td", { class: "calc-none" }, [say("not-a-hand")]);
        cell.setAttribute("data-hand", String(i));
        row.appendChild(cell);
      });
      if (several) {
        if (values.every(function (v) { return v; })) {
          row.appendChild(losersCell(showdown(ruleset.showdown, values), ruleset.showdown.lives));
        } else {
          row.appendChild(el("td", { class: "calc-loses", "data-losers": "" }, ["\u2014"]));
        }
      }
      body.appendChild(row);
    });
    var table = el("table", { class: "calc-table" }, [el("thead", {}, [head]), body]);
    return el("div", { class: "calc-scroll" }, [table]);
  }

  function render() {
    var focus = document.activeElement && document.activeElement.getAttribute("data-card");
    root.textContent = "";
    root.appendChild(handsBlock());
    root.appendChild(el("p", { class: "calc-prompt" }, [say("pick", { n: state.active + 1 })]));
    root.appendChild(picker());
    root.appendChild(results());
    if (focus) {
      var again = root.querySelector('[data-card="' + focus + '"]');
      if (again) {
        again.focus();
      }
    }
  }

  function loadHands(size) {
    size = String(size);
    if (!loading[size]) {
      loading[size] = fetch(new URL(meta.hands[size], metaUrl))
        .then(function (response) {
          if (!response.ok) {
            throw new Error(response.statusText);
          }
          return response.json();
        })
        .then(function (data) {
          handStrings[size] = data.tables;
        });
    }
    return loading[size];
  }

  // The words may not have arrived: the page's own message (in its language) is shown.
  var failedMessage = root.querySelector(".calc-failed");

  function failed() {
    root.textContent = "";
    if (failedMessage) {
      failedMessage.hidden = false;
      root.appendChild(failedMessage);
    }
  }

  fetch(metaUrl)
    .then(function (response) {
      if (!response.ok) {
        throw new Error(response.statusText);
      }
      return response.json();
    })
    .then(function (data) {
      meta = data;
      words = data.words[language] || data.words.en;
      meta.tables.forEach(function (table) {
        table.position = {};
        table.pack.forEach(function (card, i) {
          table.position[card] = i;
        });
        maxCards = Math.max(maxCards, table.size);
      });
      render();
      window.schwimmenCalculator.ready = true;
    })
    .catch(failed);
})();
