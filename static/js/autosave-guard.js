// Two races in Wagtail's autosave, worked around in the page editor (wagtail #13863,
// "Autosave UX refinements": "a single session can conflict with itself").
//
// 1. A click on Save draft (or Publish…) while an autosave was on its way posted the add form a
//    second time: two requests to create the post, the second refused with "address taken".
//    The click is held until the autosave is answered (a first autosave turns the add form into
//    the post's edit form), and no autosave starts once the form is being submitted.
// 2. An "is anyone else editing?" ping sent just before this window autosaved is answered after
//    the autosave, and the server, seeing a newer version by the same person, reports "You saved
//    a new version in another window" and arms a confirmation dialog on every save button. Such
//    a stale answer is dropped; the next ping, sent after the autosave, answers truly.
// 3. Wagtail gives an editing session one version, which its autosaves overwrite; Save draft
//    (or Publish…) made a second one, a few keystrokes newer, so "Compare with previous version"
//    compared with the session's own autosave. The submit names the version this window's
//    autosave wrote, and the server writes the save into it (blog/revisions.py).
//
// And Save draft keeps the editor open (issue 33, point 9): reloading the editor after a save
// cost the editor about 700 ms of Wagtail building the form again. The post is saved the way
// its autosave is (the edit view's JSON answer, with the side panels Wagtail renders for it),
// the editing session's version ends there as after a reload, and the post's message shows.
// Anything but success (a form error, a newer version elsewhere, a lock, no network) submits
// the form as before, and the page that answers says what is wrong.
(() => {
  const HOLD_AT_MOST_MS = 15000;
  let saving = false; // an autosave is waiting for its answer
  let answered = 0; // autosaves answered so far
  let held = null; // the submit held until then: {form, submitter}
  let holdTimer = null;
  let pingAfter = 0;
  let pingDuringSave = false;
  let savingInPlace = false; // a Save draft kept in the editor, waiting for its answer
  let submitAsBefore = false; // the next submit goes to the server as a page load

  const isEditForm = (element) => element instanceof HTMLFormElement && element.matches("[data-edit-form]");

  const submitAgain = ({ form, submitter }) => {
    if (submitter && submitter.name) {
      // A disabled button (Wagtail shows a spinner on it) is left out of what the form sends.
      const action = document.createElement("input");
      action.type = "hidden";
      action.name = submitter.name;
      action.value = submitter.value;
      form.appendChild(action);
    }
    form.requestSubmit();
  };

  // The autosave controller keeps the version its answers named in this Stimulus value.
  const nameTheAutosavedVersion = (form) => {
    const version = form.getAttribute("data-w-autosave-revision-id-value");
    if (!version) return;
    let field = form.querySelector("input[name='autosaved_revision_id']");
    if (!field) {
      field = document.createElement("input");
      field.type = "hidden";
      field.name = "autosaved_revision_id";
      form.appendChild(field);
    }
    field.value = version;
  };

  const release = () => {
    clearTimeout(holdTimer);
    const submit = held;
    held = null;
    if (submit) submitAgain(submit);
  };

  // Save draft is the editor's plain submit button; every other action names itself.
  const isSaveDraft = (button) =>
    button instanceof HTMLButtonElement && button.classList.contains("action-save") && !button.name;

  // Only a post that exists, with Wagtail's autosave on and working: a new post's first save
  // turns the add form into the edit form, which a page load does best.
  const canSaveInPlace = (form) =>
    (form.getAttribute("data-controller") || "").split(/\s+/).includes("w-autosave") &&
    form.getAttribute("data-w-autosave-active-value") !== "false" &&
    /\/edit\/$/.test(new URL(form.action, window.location.href).pathname);

  // What was typed, as Wagtail's unsaved-changes controller compares it: not the form's
  // bookkeeping, nor the comments, which it tracks apart.
  const BOOKKEEPING = ["csrfmiddlewaretoken", "loaded_revision_id", "loaded_revision_created_at", "next"];
  const whatTheFormHolds = (form) =>
    JSON.stringify(
      [...new FormData(form)].filter(
        ([name, value]) =>
          typeof value === "string" && !BOOKKEEPING.includes(name) && !name.startsWith("comments-"),
      ),
    );

  const saveInPlace = async (form, button) => {
    savingInPlace = true;
    // No autosave starts while this save is on its way: it would name the version this ends.
    form.setAttribute("data-w-autosave-active-value", "false");
    const body = new FormData(form);
    const version = form.getAttribute("data-w-autosave-revision-id-value");
    if (version && version !== "0") body.set("overwrite_revision_id", version);
    body.set("save_in_place", "1");
    const sent = whatTheFormHolds(form);
    let answer = null;
    try {
      const response = await fetch(form.action, {
        method: "POST",
        body,
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      answer = await response.json();
    } catch {
      answer = null;
    }
    savingInPlace = false;
    const typedMeanwhile = whatTheFormHolds(form) !== sent;
    if (!answer || !answer.success) {
      // The page that answers an ordinary submit shows the form's errors or the conflict.
      submitAsBefore = true;
      held = null;
      form.requestSubmit();
      return;
    }
    const partials = form.querySelector("[data-w-autosave-target='partials']");
    if (partials && answer.html) partials.innerHTML = answer.html;
    for (const [name, value] of Object.entries(answer.field_updates || {})) {
      const field = form.elements.namedItem(name);
      if (field) field.value = value;
    }
    // As after a reload: the form was loaded at this version, and the next autosave makes a
    // new one on top of it instead of rewriting what the editor chose to save.
    for (const [name, value] of [
      ["loaded_revision_id", answer.revision_id],
      ["loaded_revision_created_at", answer.revision_created_at],
    ]) {
      const field = form.querySelector(`input[name='${name}']`);
      if (field && value !== undefined) field.value = value;
    }
    form.setAttribute("data-w-autosave-revision-id-value", "0");
    form.setAttribute("data-w-autosave-active-value", "true");
    // After the panels have moved into place (as Wagtail's autosave waits): the form as it
    // then stands is the form as saved.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    // Wagtail's own listeners take it as a saved form: the unsaved-changes warning clears, the
    // indicator says Saved, the editing session and comments learn the new version.
    form.dispatchEvent(
      new CustomEvent("w-autosave:success", {
        bubbles: true,
        detail: { response: answer, data: answer, trigger: null },
      }),
    );
    button.setAttribute("data-w-progress-loading-value", "false");
    const message = partials && partials.querySelector("template[data-saved-message]");
    if (message) {
      document.dispatchEvent(
        new CustomEvent("w-messages:add", {
          detail: { clear: true, text: message.content.textContent.trim(), type: "success" },
        }),
      );
    }
    // Typed while the save was on its way (or the slug followed a new title): a change of its
    // own, for the next autosave, announced as Wagtail's unsaved-changes controller does. The
    // autosave that takes it cancels the event; one that cannot be cancelled also reached the
    // footer's warning, which said "Autosave is paused" while it ran.
    if (typedMeanwhile) {
      form.dispatchEvent(
        new CustomEvent("w-unsaved:add", { bubbles: true, cancelable: true, detail: { type: "edits" } }),
      );
    }
    if (held) requestAnimationFrame(release);
  };

  document.addEventListener(
    "w-autosave:save",
    (event) => {
      if (isEditForm(event.target)) saving = true;
    },
    true,
  );
  for (const type of ["w-autosave:success", "w-autosave:error"]) {
    document.addEventListener(type, (event) => {
      if (!isEditForm(event.target)) return;
      saving = false;
      answered += 1;
      // After the form has taken the answer in (a new address for the add form).
      if (held) requestAnimationFrame(release);
    });
  }

  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!isEditForm(form)) return;
      if (saving || savingInPlace) {
        event.preventDefault();
        event.stopImmediatePropagation();
        // A second click on Save draft while the first is saving adds nothing.
        if (!(savingInPlace && isSaveDraft(event.submitter))) {
          held = { form, submitter: event.submitter };
          holdTimer = setTimeout(release, HOLD_AT_MOST_MS);
        }
        return;
      }
      if (!submitAsBefore && isSaveDraft(event.submitter) && canSaveInPlace(form)) {
        event.preventDefault();
        event.stopImmediatePropagation();
        saveInPlace(form, event.submitter);
        return;
      }
      submitAsBefore = false;
      // The page is leaving with this submit: an autosave now would post the same form again.
      form.setAttribute("data-w-autosave-active-value", "false");
      nameTheAutosavedVersion(form);
    },
    true,
  );

  const isPing = (event) => event.target instanceof Element && event.target.closest(".w-editing-sessions");
  document.addEventListener(
    "w-swap:begin",
    (event) => {
      if (!isPing(event)) return;
      pingAfter = answered;
      pingDuringSave = saving;
    },
    true,
  );
  document.addEventListener(
    "w-swap:json",
    (event) => {
      if (!isPing(event)) return;
      const stale = saving || pingDuringSave || pingAfter !== answered;
      const data = event.detail && event.detail.data;
      if (!stale || !data) return;
      const list = document.getElementById("w-editing-sessions");
      data.other_sessions = [];
      if (list) data.html = list.innerHTML;
    },
    true,
  );
})();
