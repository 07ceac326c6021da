// "120 / 300 characters" under every length-limited field of the post, topic and author
// editors (blog/forms.py CharacterLimitMixin puts data-controller="character-count" and the
// limit on the field). Nothing is cut as the browser's maxlength did: the count turns red and
// says how much is over, and saving is refused until it fits.
//
// A Stimulus controller on Wagtail's own application (core.js exposes window.wagtail.app and
// window.StimulusModule), so fields Wagtail adds or re-renders are counted as well.
(() => {
  const app = window.wagtail && window.wagtail.app;
  const Stimulus = window.StimulusModule;
  if (!app || !Stimulus) return;

  // Count as the server does: Django strips the ends and a textarea sends line breaks as
  // \r\n; Array.from counts characters, not UTF-16 units, like Python's len().
  const lengthOnServer = (value) => Array.from(value.trim().replace(/\r?\n/g, "\r\n")).length;

  class CharacterCountController extends Stimulus.Controller {
    static values = { limit: Number };

    connect() {
      this.counter = document.createElement("p");
      this.counter.className = "character-count w-help-text w-tabular-nums";
      this.counter.id = `${this.element.id}-character-count`;
      this.counter.dataset.limit = String(this.limitValue);
      this.element.insertAdjacentElement("afterend", this.counter);
      const describedBy = (this.element.getAttribute("aria-describedby") || "").split(" ");
      this.element.setAttribute(
        "aria-describedby",
        [...describedBy.filter(Boolean), this.counter.id].join(" "),
      );
      this.update();
    }

    disconnect() {
      if (this.counter) this.counter.remove();
    }

    update() {
      const count = lengthOnServer(this.element.value);
      const over = count - this.limitValue;
      let text = `${count} / ${this.limitValue} characters`;
      if (over > 0) {
        text += ` (${over} too many: shorten it to save)`;
      }
      this.counter.textContent = text;
      this.counter.classList.toggle("w-text-critical-200", over > 0);
      this.counter.classList.toggle("w-font-bold", over > 0);
    }
  }

  app.register("character-count", CharacterCountController);
})();
