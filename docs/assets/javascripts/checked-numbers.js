// A checked number's or claim's tooltip (assets/checked-numbers.css) opens on hover, keyboard focus or a tap.
// Near the right edge of a wide screen it is shifted left so that it stays on the screen (--tip-shift); on a phone
// it is a sheet along the bottom of the screen. Esc closes it by moving the focus away.
const MARGIN = 8;

function placeTip(el) {
  const rect = el.getBoundingClientRect();
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const width = Math.min(32 * rem, window.innerWidth * 0.8); // the tooltip's max-width, min(32rem, 80vw)
  const shift = Math.min(0, window.innerWidth - MARGIN - rect.left - width);
  el.style.setProperty("--tip-shift", `${Math.max(shift, MARGIN - rect.left)}px`);
}

for (const kind of ["focusin", "mouseover"]) {
  document.addEventListener(kind, (event) => {
    const el = event.target.closest && event.target.closest(".checked-number");
    if (el) placeTip(el);
  });
}

document.addEventListener("keydown", (event) => {
  const open = document.activeElement;
  if (event.key === "Escape" && open && open.classList && open.classList.contains("checked-number")) {
    open.blur();
  }
});
