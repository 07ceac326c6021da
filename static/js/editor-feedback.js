// What the post editor says about errors stays true while the editor works.
//
// 1. A field's error ("This field is required.") is the server's verdict on what was sent; once
//    the editor types into that field it no longer describes it, so it goes (the next save asks
//    the server again). Wagtail leaves it until the page reloads.
// 2. After a refused Save or Publish the red banner says "could not be saved", and the autosave
//    that follows the next edit may save the draft and show "✓ Saved" beside it. Once an autosave
//    succeeds the banner says what is true: the changes are saved as a draft, and what is left
//    to fix before publishing, if anything.
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
  };
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
