// Topics and authors ticked in a chooser ("Add topics", "Add authors") are added to the post in
// the order they were ticked: the first topic is the card's label, the first author leads the
// byline. Wagtail's chooser sends the ticked ids in the order of its list (alphabetical), so
// each tick also adds a hidden "picked" id to the chooser's form, which blog/snippets.py's
// chosen view reads to put the chosen items in that order.
(() => {
  document.addEventListener("change", (event) => {
    const box = event.target;
    if (!box.matches || !box.matches("[data-multiple-choice-select]")) return;
    const form = box.closest("form[data-multiple-choice-form]");
    if (!form) return;
    for (const old of form.querySelectorAll("input[name='picked']")) {
      if (old.value === box.value) old.remove();
    }
    if (box.checked) {
      const picked = document.createElement("input");
      picked.type = "hidden";
      picked.name = "picked";
      picked.value = box.value;
      form.append(picked);
    }
  });
})();
