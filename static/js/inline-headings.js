// Each topic and byline row of the post editor is headed by what it links to ("GPU
// reliability"), not by Wagtail's "Topics 1", "Topics 2": the name is the chooser's title
// inside the row, which changes when the editor chooses another one.
(() => {
  const ROWS = "#id_topic_links-FORMS [data-inline-panel-child], #id_author_links-FORMS [data-inline-panel-child]";
  const name = () => {
    for (const row of document.querySelectorAll(ROWS)) {
      const heading = row.querySelector("[data-panel-heading-text]");
      const chosen = row.querySelector("[data-chooser-title]");
      const title = chosen && chosen.textContent.trim();
      if (heading && title && heading.textContent.trim() !== title) heading.textContent = title;
    }
  };
  let pending = false;
  const soon = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      name();
    });
  };
  const watch = () => {
    name();
    new MutationObserver(soon).observe(document.body, { childList: true, subtree: true, characterData: true });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
