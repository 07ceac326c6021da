// Post-title suggestions under every search box (ARIA 1.2 combobox with a listbox popup).
// Progressive enhancement: without this script the boxes are plain GET forms to /search/.
(function () {
  "use strict";

  var script = document.currentScript;
  var endpoint = script && script.dataset.suggestUrl;
  var stylesheet = script && script.dataset.stylesheet;
  if (!endpoint || !window.fetch) return;

  var MIN_CHARS = 2;
  var DELAY_MS = 150;
  var counter = 0;

  function loadStyles() {
    if (!stylesheet || document.querySelector('link[href="' + stylesheet + '"]')) return;
    var link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = stylesheet;
    document.head.appendChild(link);
  }

  function enhance(input) {
    counter += 1;
    var listId = "search-suggest-" + counter;
    var wrapper = document.createElement("div");
    wrapper.className = "search-suggest";
    input.parentNode.insertBefore(wrapper, input);
    wrapper.appendChild(input);

    var list = document.createElement("ul");
    list.id = listId;
    list.className = "search-suggest__list";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Matching posts");
    list.hidden = true;
    wrapper.appendChild(list);

    var status = document.createElement("p");
    status.className = "visually-hidden";
    status.setAttribute("role", "status");
    wrapper.appendChild(status);

    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-controls", listId);
    input.setAttribute("aria-expanded", "false");

    var results = [];
    var active = -1;
    var timer = null;
    var pending = null;

    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      active = -1;
    }

    function setActive(index) {
      var options = list.children;
      if (active >= 0 && options[active]) options[active].setAttribute("aria-selected", "false");
      active = index;
      if (active >= 0 && options[active]) {
        options[active].setAttribute("aria-selected", "true");
        input.setAttribute("aria-activedescendant", options[active].id);
        options[active].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function render(items) {
      results = items;
      list.textContent = "";
      items.forEach(function (item, index) {
        var option = document.createElement("li");
        option.id = listId + "-" + index;
        option.className = "search-suggest__option";
        option.setAttribute("role", "option");
        option.setAttribute("aria-selected", "false");
        option.textContent = item.title; // text, never HTML: titles are editor input
        option.addEventListener("mousedown", function (event) {
          event.preventDefault(); // keep focus in the input until we navigate
          window.location.assign(item.url);
        });
        list.appendChild(option);
      });
      active = -1;
      if (items.length) {
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
        status.textContent = items.length + (items.length === 1 ? " suggestion" : " suggestions");
      } else {
        close();
        status.textContent = "";
      }
    }

    function fetchSuggestions() {
      var q = input.value.trim();
      if (q.length < MIN_CHARS) {
        render([]);
        return;
      }
      if (pending) pending.abort();
      pending = new AbortController();
      fetch(endpoint + "?q=" + encodeURIComponent(q), {
        signal: pending.signal,
        headers: { Accept: "application/json" },
      })
        .then(function (response) {
          return response.ok ? response.json() : { results: [] };
        })
        .then(function (data) {
          if (input.value.trim() === q) render(data.results || []);
        })
        .catch(function () {
          /* aborted or offline: the plain search still works */
        });
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(fetchSuggestions, DELAY_MS);
    });

    input.addEventListener("keydown", function (event) {
      var open = !list.hidden && results.length > 0;
      if (event.key === "ArrowDown") {
        if (!open) {
          fetchSuggestions();
          return;
        }
        event.preventDefault();
        setActive(active + 1 >= results.length ? 0 : active + 1);
      } else if (event.key === "ArrowUp" && open) {
        event.preventDefault();
        setActive(active <= 0 ? results.length - 1 : active - 1);
      } else if (event.key === "Enter" && open && active >= 0) {
        event.preventDefault(); // go to the chosen post instead of submitting the search
        window.location.assign(results[active].url);
      } else if (event.key === "Escape" && open) {
        event.preventDefault();
        close();
      }
    });

    input.addEventListener("blur", close);
  }

  function start() {
    var inputs = document.querySelectorAll('form[role="search"] input[type="search"][name="q"]');
    if (!inputs.length) return;
    loadStyles();
    Array.prototype.forEach.call(inputs, enhance);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
