// The post's table has one kind of cell, so Wagtail's menu of column types would offer a single
// choice: take it as soon as the menu opens. Listening on the document runs after Wagtail's own
// handler on the button has opened the menu.
document.addEventListener("click", (event) => {
  const trigger = event.target.closest(
    ".typed-table-block button.append-column, .typed-table-block button.prepend-column",
  );
  if (!trigger || trigger.getAttribute("aria-expanded") !== "true") return;
  const menu = trigger.nextElementSibling;
  if (!menu || !menu.classList.contains("add-column-menu")) return;
  const choices = menu.querySelectorAll("button");
  if (choices.length === 1) choices[0].click();
});
