// The run's page: "N of M posts checked" (a dry run) or "imported" follows the run, and the
// page reloads when the run's status changes, to show that it started, then what it did once
// it ends (blog/importing/admin_views.py, ImportRunProgressView).
(() => {
  const box = document.querySelector("[data-import-progress]");
  if (!box) return;
  const bar = box.querySelector("progress");
  const text = box.querySelector("[data-import-progress-text]");
  const ask = async () => {
    try {
      const response = await fetch(box.dataset.importProgress, { credentials: "same-origin" });
      if (response.ok) {
        const run = await response.json();
        if (run.status !== box.dataset.importStatus) {
          window.location.reload();
          return;
        }
        if (bar) {
          bar.max = run.total || 1;
          bar.value = run.done;
          text.textContent = `${run.done} of ${run.total ?? "…"} ${box.dataset.importWords}.`;
        }
      }
    } catch {
      // A missed answer (a restart, the network): the next one tells.
    }
    window.setTimeout(ask, 2000);
  };
  window.setTimeout(ask, 2000);
})();
