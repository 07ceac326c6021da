// The post editor's Publish and Approve buttons say what they will do with the form as it is
// now: a go-live typed on the Publishing tab makes "Publish" "Schedule to publish" and
// "Approve and publish" "Approve and schedule" at once, not only after a save and reload (the
// server words them the same way from the saved go-live: schedule_messages.py).
(() => {
  const FIELD = 'input[name="go_live_at"]';
  const clockIn = (zone) => {
    try {
      // "2026-12-05 09:30", the field's own format, so the two compare as strings.
      const format = new Intl.DateTimeFormat("sv-SE", {
        timeZone: zone || undefined,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      });
      return () => format.format(new Date());
    } catch (error) {
      return null;
    }
  };

  const isAhead = (field) => {
    const typed = field.value.trim().replace("T", " ");
    if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/.test(typed)) return false;
    const now = clockIn(field.dataset.editorZone);
    return now ? typed.slice(0, 16) > now() : false;
  };

  const relabel = (field) => {
    const scheduled = isAhead(field);
    const publish = document.querySelector('button[name="action-publish"]');
    const label = publish && publish.querySelector("[data-w-progress-target='label']");
    if (label && /^(Publish|Schedule to publish)$/.test(label.textContent.trim())) {
      label.textContent = scheduled ? "Schedule to publish" : "Publish";
      publish.dataset.wProgressActiveValue = scheduled ? "Scheduling…" : "Publishing…";
    }
    for (const button of document.querySelectorAll("button[data-workflow-action-name]")) {
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let node; (node = walker.nextNode()); ) {
        const text = node.textContent;
        if (scheduled && /and publish\s*$/.test(text)) {
          node.textContent = text.replace(/and publish(\s*)$/, "and schedule$1");
        } else if (!scheduled && /and schedule\s*$/.test(text)) {
          node.textContent = text.replace(/and schedule(\s*)$/, "and publish$1");
        }
      }
    }
  };

  const follow = (event) => {
    if (event.target.matches && event.target.matches(FIELD)) relabel(event.target);
  };
  // Typing, and the picker, which sets the value and sends a jQuery "change" that native
  // listeners never hear.
  document.addEventListener("input", follow);
  document.addEventListener("change", follow);
  document.addEventListener("focusout", follow);
  if (window.jQuery) window.jQuery(document).on("change", FIELD, follow);
  // A go-live that passes while the editor is open no longer schedules.
  setInterval(() => {
    const field = document.querySelector(FIELD);
    if (field) relabel(field);
  }, 30_000);
})();
