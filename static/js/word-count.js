// "64 words · 1 min read" above a post's body while it is written: the words readers see in
// the body, as the preview's Checks count them, at the pace of the reader's "min read"
// (blog/reading.py, passed as data-words-per-minute). Settings such as a heading's anchor
// and a picture's alt text are not read on the page, so they are not counted.
(() => {
  const script = document.currentScript;
  const wordsPerMinute = Number(script && script.dataset.wordsPerMinute) || 230;
  const NOT_READ = ["anchor", "language", "kind", "embed", "image", "alt_text"]
    .map((name) => `[data-contentpath="${name}"]`)
    .join(", ");
  const TEXTS = '[contenteditable="true"], textarea, input[type="text"], input:not([type])';

  const countWords = (body) => {
    let words = 0;
    for (const field of body.querySelectorAll(TEXTS)) {
      if (field.closest(NOT_READ)) continue;
      const text = field.isContentEditable ? field.innerText : field.value;
      words += text.split(/\s+/).filter(Boolean).length;
    }
    return words;
  };

  const start = (body) => {
    const counter = document.createElement("p");
    counter.id = "body-word-count";
    counter.className = "w-help-text w-tabular-nums";
    body.insertAdjacentElement("beforebegin", counter);
    let pending = false;
    const update = () => {
      pending = false;
      const words = countWords(body);
      const minutes = Math.max(1, Math.ceil(words / wordsPerMinute));
      counter.textContent = `${words} word${words === 1 ? "" : "s"} · ${minutes} min read`;
    };
    const soon = () => {
      if (!pending) {
        pending = true;
        requestAnimationFrame(update);
      }
    };
    // Typing, and blocks added, moved, pasted or deleted.
    body.addEventListener("input", soon);
    new MutationObserver(soon).observe(body, { childList: true, subtree: true, characterData: true });
    update();
  };

  const find = () => document.querySelector('[data-contentpath="body"]');
  if (find()) {
    start(find());
    return;
  }
  // The body's blocks are drawn by Wagtail's script after the page has loaded.
  const waiting = new MutationObserver(() => {
    const body = find();
    if (body) {
      waiting.disconnect();
      start(body);
    }
  });
  waiting.observe(document.documentElement, { childList: true, subtree: true });
})();
