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
(() => {
  const HOLD_AT_MOST_MS = 15000;
  let saving = false; // an autosave is waiting for its answer
  let answered = 0; // autosaves answered so far
  let held = null; // the submit held until then: {form, submitter}
  let holdTimer = null;
  let pingAfter = 0;
  let pingDuringSave = false;

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
      if (saving) {
        event.preventDefault();
        event.stopImmediatePropagation();
        held = { form, submitter: event.submitter };
        holdTimer = setTimeout(release, HOLD_AT_MOST_MS);
        return;
      }
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
