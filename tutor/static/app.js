// Kortmatte's only script: keyboard focus after each htmx swap, and the hourglass.
// Served from the app itself; no inline script anywhere (the CSP forbids it).
(function () {
  "use strict";
  document.documentElement.classList.add("js");  // lets CSS hide the no-script fallbacks

  function focusFirst(root) {
    var target = (root || document).querySelector("[data-autofocus]");
    if (target) {
      target.focus({ preventScroll: false });
    }
  }

  var timer = null;
  function startHourglass(root) {
    if (timer) { clearInterval(timer); timer = null; }
    var display = (root || document).querySelector("[data-hourglass]");
    if (!display) { return; }
    var left = parseInt(display.getAttribute("data-hourglass"), 10);
    var template = display.textContent.replace(String(left), "{s}");
    var form = document.getElementById(display.getAttribute("data-form"));
    timer = setInterval(function () {
      left = Math.max(0, left - 1);
      display.textContent = template.replace("{s}", String(left));
      if (left === 0 && form) {
        clearInterval(timer);
        timer = null;
        form.requestSubmit();
      }
    }, 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    focusFirst(document.getElementById("lesson"));
    startHourglass(document);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    focusFirst(event.detail.elt.closest ? event.detail.elt : document);
    startHourglass(document);
  });
})();
