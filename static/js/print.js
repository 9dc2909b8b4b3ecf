/* A button marked data-print prints the page (no inline onclick: the CSP forbids it). */
document.addEventListener("click", function (event) {
  var target = event.target;
  if (target.closest && target.closest("[data-print]")) { window.print(); }
});
