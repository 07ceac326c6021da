// What the post editor says about errors stays true while the editor works.
//
// 1. A field's error ("This field is required.") is the server's verdict on what was sent; once
//    the editor types into that field it no longer describes it, so it goes (the next save asks
//    the server again). Wagtail leaves it until the page reloads.
// 2. After a refused Save or Publish the red banner says "could not be saved", and the autosave
//    that follows the next edit may save the draft and show "✓ Saved" beside it. Once an autosave
//    succeeds the banner says what is true: the changes are saved as a draft, and what is left
//    to fix before publishing, if anything.
// 3. The error counts beside each tab's name and in the minimap say how many errors the editor
//    can see. Wagtail counts them once as the page opens, before the body (a StreamField) shows
//    its own error, and never again: a body left empty went uncounted, and a fixed field's error
//    stayed counted. The body's error was grey help text besides, which the minimap ignores.
(() => {
  const SAVED_WITH_ERRORS =
    "Your changes are saved as a draft. To publish, fix the fields marked below.";
  const isEditForm = (element) =>
    element instanceof HTMLFormElement && element.matches("[data-edit-form]");

  // Widgets set values as they start up; only what follows the editor's own first key or click
  // is an edit (a chooser's pick then arrives as a change event of its hidden input).
  let editing = false;
  const startEditing = (event) => {
    if (event.isTrusted) editing = true;
  };
  document.addEventListener("keydown", startEditing, true);
  document.addEventListener("pointerdown", startEditing, true);

  const clearFieldError = (event) => {
    const target = event.target;
    if (!editing) return;
    if (!(target instanceof Element) || !isEditForm(target.closest("form"))) return;
    const field = target.closest("[data-field]");
    if (!field || !field.classList.contains("w-field--error")) return;
    field.classList.remove("w-field--error");
    const errors = field.querySelector("[data-field-errors]");
    if (errors) errors.replaceChildren();
    field.querySelectorAll('[aria-invalid="true"]').forEach((input) => {
      input.removeAttribute("aria-invalid");
    });
    recountErrors(field.closest("[data-panel]"));
  };
  // The body's "This field is required." looks and counts as every other field's error.
  const markBodyErrors = () => {
    document.querySelectorAll("[data-edit-form] .help-critical").forEach((message) => {
      message.classList.add("error-message");
    });
  };

  const recountErrors = (panel) => {
    const app = window.wagtail && window.wagtail.app;
    document.querySelectorAll('[data-controller~="w-count"]').forEach((element) => {
      const counter = app && app.getControllerForElementAndIdentifier(element, "w-count");
      if (counter) counter.count();
    });
    // The event Wagtail's minimap redraws on (and the banner's "Go to the first error" counts on).
    (panel || document.body).dispatchEvent(
      new CustomEvent("wagtail:panel-init", { bubbles: true, detail: { expanded: true } }),
    );
  };

  window.addEventListener("load", () => {
    markBodyErrors();
    recountErrors();
  });

  document.addEventListener("input", clearFieldError, true);
  document.addEventListener("change", clearFieldError, true);

  const fieldErrorsLeft = (form) =>
    [...form.querySelectorAll("[data-field-errors] .error-message")].filter((message) =>
      message.textContent.trim(),
    ).length;

  document.addEventListener("w-autosave:success", (event) => {
    const form = event.target;
    if (!isEditForm(form)) return;
    // The banners the server rendered with the page; those autosave adds itself are cleared
    // by Wagtail.
    document.querySelectorAll(".messages li.error:not(.new)").forEach((banner) => {
      if (!fieldErrorsLeft(form)) {
        banner.remove();
        return;
      }
      const icon = banner.querySelector(".messages-icon");
      const goToError = banner.querySelector("button");
      banner.replaceChildren(...[icon, SAVED_WITH_ERRORS, goToError].filter(Boolean));
      banner.classList.replace("error", "warning");
    });
  });
})();
