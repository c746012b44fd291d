// A checked number's or claim's tooltip (assets/checked-numbers.css) opens on keyboard focus or a tap; Esc closes it
// by moving the focus away, so a keyboard or a phone never keeps a sheet it cannot dismiss.
document.addEventListener("keydown", (event) => {
  const open = document.activeElement;
  if (event.key === "Escape" && open && open.classList && open.classList.contains("checked-number")) {
    open.blur();
  }
});
