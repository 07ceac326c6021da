// "64 words · 1 min read" above a post's body while it is written, and the same numbers in the
// preview's Checks panel. The server counts (BlogPage.word_count, which the reader's "min read"
// also uses), so the editor, the Checks and the reading time cannot disagree: Wagtail's Checks
// would otherwise count whatever the preview shows, a card's title and summary included.
(() => {
  const script = document.currentScript;
  const countUrl = script && script.dataset.countUrl;
  if (!countUrl) return;
  let latest = null; // {words, minutes} for the form as it was last counted
  let counting = null; // the promise of the count in flight
  let controller = null;

  const describe = ({ words, minutes }) =>
    `${words} word${words === 1 ? "" : "s"} · ${minutes} min read`;

  const showInChecks = (metrics) => {
    const words = document.querySelector("[data-content-word-count]");
    const time = document.querySelector("[data-content-reading-time]");
    if (words) words.textContent = String(metrics.words);
    if (time) time.textContent = `${metrics.minutes} min${metrics.minutes === 1 ? "" : "s"}`;
  };

  const count = (form, counter) => {
    if (controller) controller.abort();
    controller = new AbortController();
    counting = fetch(countUrl, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      signal: controller.signal,
    })
      .then((response) => (response.ok ? response.json() : null))
      .then((metrics) => {
        if (!metrics) return latest;
        latest = metrics;
        counter.textContent = describe(metrics);
        if (document.querySelector("[data-content-word-count]")?.textContent) showInChecks(metrics);
        return metrics;
      })
      .catch(() => latest);
    return counting;
  };

  // The Checks panel writes its own count right after this event; ours replaces it.
  document.addEventListener("w-preview:content", (event) => {
    const metrics = event.detail && event.detail.metrics;
    if (latest && metrics) {
      metrics.wordCount = latest.words;
      metrics.readingTime = latest.minutes;
    }
    Promise.resolve(counting).then((counted) => {
      if (counted) showInChecks(counted);
    });
  });

  const start = (body) => {
    const form = body.closest("form");
    const counter = document.createElement("p");
    counter.id = "body-word-count";
    counter.className = "w-help-text w-tabular-nums";
    body.insertAdjacentElement("beforebegin", counter);
    if (!form) return;
    let timer = null;
    const soon = () => {
      clearTimeout(timer);
      // Draftail writes its text into the form a moment after each keystroke.
      timer = setTimeout(() => count(form, counter), 500);
    };
    // Typing, and blocks added, moved, pasted or deleted.
    body.addEventListener("input", soon);
    body.addEventListener("change", soon);
    new MutationObserver(soon).observe(body, { childList: true, subtree: true, characterData: true });
    count(form, counter);
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
