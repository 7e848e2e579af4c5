// Kortmatte's only script: keyboard focus after each htmx swap, the hourglass, the number pad of a typed
// answer on touch screens, reading a text aloud, and a message when a request fails.
// Served from the app itself; no inline script anywhere (the CSP forbids it).
(function () {
  "use strict";
  document.documentElement.classList.add("js");  // lets CSS hide the no-script fallbacks

  // A touch screen shows the number pad (app.css), whose keys type the answer: focusing the answer box
  // there would open the phone's own keyboard over the pad, so the box gets the focus only when tapped.
  var touch = window.matchMedia ? window.matchMedia("(pointer: coarse)") : null;

  function focusFirst(root) {
    var target = (root || document).querySelector("[data-autofocus]");
    if (target && !(touch && touch.matches && target.hasAttribute("data-pad-input"))) {
      target.focus({ preventScroll: false });
    }
  }

  // The number pad: a key types its sign at the end of the answer box of its pad (or takes the last one
  // away) without focusing the box, and the box's new text is said to screen readers. One listener on the
  // document serves every pad, also those htmx swaps in later.
  document.addEventListener("click", function (event) {
    var key = event.target.closest && event.target.closest("[data-pad-insert], [data-pad-delete]");
    var pad = key && key.closest("[data-pad-for]");
    var box = pad && document.getElementById(pad.getAttribute("data-pad-for"));
    if (!box) { return; }
    if (key.hasAttribute("data-pad-delete")) {
      box.value = box.value.slice(0, -1);
    } else if (box.maxLength < 0 || box.value.length < box.maxLength) {
      box.value += key.getAttribute("data-pad-insert");
    }
    var echo = box.form && box.form.querySelector("[data-pad-echo]");
    if (echo) { echo.textContent = box.value; }
  });

  // Read aloud (for children who cannot read yet): a speaker button says its text, which the server spelt
  // in words (data-speak), with the browser's speech synthesis in the page's language. Only a voice on the
  // device itself is used (a network voice would send the text to a third party). A device without one plays
  // the text's clips recorded on the server instead (data-speak-audio: their URLs, one after another); a
  // button with neither stays hidden and the lesson works silently.
  var speech = window.speechSynthesis;
  function deviceVoice() {
    if (!speech || !window.SpeechSynthesisUtterance) { return null; }
    var language = (document.documentElement.lang || "en").toLowerCase();
    var accepted = language === "nb" ? ["nb", "no"] : [language];  // many devices name Bokmål's voice "no"
    var voices = speech.getVoices().filter(function (voice) {
      return voice.localService && accepted.indexOf((voice.lang || "").toLowerCase().split(/[-_]/)[0]) >= 0;
    });
    return voices[0] || null;
  }
  function clips(button) {
    var urls = button.getAttribute("data-speak-audio");
    return urls && window.Audio ? urls.split(" ") : [];
  }
  function showSpeakers() {
    var voice = deviceVoice();
    document.querySelectorAll("button[data-speak]").forEach(function (button) {
      button.hidden = !voice && !clips(button).length;
    });
  }
  function say(words, voice) {
    var utterance = new window.SpeechSynthesisUtterance(words);
    utterance.voice = voice;
    utterance.lang = voice.lang;
    speech.speak(utterance);
  }
  // The recorded clips still to play, in turn; a new reading replaces what is left of the last one.
  var queue = [];
  var playing = null;
  function playNext() {
    playing = null;
    var url = queue.shift();
    if (!url) { return; }
    playing = new window.Audio(url);
    playing.addEventListener("ended", playNext);
    var started = playing.play();
    if (started && started.catch) { started.catch(function () { queue = []; }); }  // autoplay refused: stop
  }
  function play(urls) {
    if (playing) { playing.pause(); }
    queue = urls.slice();
    playNext();
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-speak]");
    if (!button) { return; }
    var voice = deviceVoice();
    if (voice) {
      speech.cancel();
      say(button.getAttribute("data-speak"), voice);
    } else if (clips(button).length) {
      play(clips(button));
    }
  });

  // A class that reads aloud (the teacher's class setting, for the youngest pupils): after each step the
  // new texts of the lesson (the coach's lines, the question, the feedback) are read by themselves, each
  // once: a text still on the page after the next step (the question while a hint is asked) is not repeated.
  var readBefore = [];
  function readAloud() {
    var lesson = document.querySelector("#lesson[data-read-aloud]");
    if (!lesson) { return; }
    var voice = deviceVoice();
    var buttons = Array.prototype.slice.call(lesson.querySelectorAll("button[data-speak-auto]"));
    if (!voice) { buttons = buttons.filter(function (button) { return clips(button).length; }); }
    if (!buttons.length) { return; }
    var texts = buttons.map(function (button) { return button.getAttribute("data-speak"); });
    var fresh = buttons.filter(function (button, index) { return readBefore.indexOf(texts[index]) < 0; });
    readBefore = texts;
    if (!fresh.length) { return; }
    if (voice) {
      speech.cancel();  // the last step's reading, if it is still going, gives way to the new one
      fresh.forEach(function (button) { say(button.getAttribute("data-speak"), voice); });
    } else {
      play([].concat.apply([], fresh.map(clips)));
    }
  }
  if (speech && speech.addEventListener) {
    speech.addEventListener("voiceschanged", function () { showSpeakers(); readAloud(); });
  }

  // The server gives the whole sentence for every second left (data-hourglass-forms: each
  // distinct sentence once with a {num} slot, and which one each number takes), so the plural
  // form is the language's own and no words are put together here.
  var timer = null;
  function startHourglass(root) {
    if (timer) { clearInterval(timer); timer = null; }
    var display = (root || document).querySelector("[data-hourglass]");
    if (!display) { return; }
    var left = parseInt(display.getAttribute("data-hourglass"), 10);
    var forms = JSON.parse(display.getAttribute("data-hourglass-forms"));
    var form = document.getElementById(display.getAttribute("data-form"));
    timer = setInterval(function () {
      left = Math.max(0, left - 1);
      display.textContent = forms.templates[forms.form_of[left]].replace("{num}", String(left));
      if (left === 0 && form) {
        clearInterval(timer);
        timer = null;
        form.requestSubmit();
      }
    }, 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    // the answer to a learning platform's deep-linking request goes back on its own (templates/lti)
    var back = document.querySelector("form[data-auto-submit]");
    if (back) { back.submit(); }
    focusFirst(document.getElementById("lesson"));
    startHourglass(document);
    showSpeakers();
    readAloud();
  });
  // After a step, what the coach says (the others' moves, the result) comes back into view
  // if the page was scrolled past it; the focus then scrolls only if its target is not in view.
  function showCoach() {
    var lesson = document.getElementById("lesson");
    var first = lesson && lesson.querySelector(".lesson-flashes, .coach, .drill");
    if (first && first.getBoundingClientRect().top < 0) {
      first.scrollIntoView({ block: "start" });
    }
  }

  // A lesson step may swap only the parts of the lesson that changed (each settles on its own): the focus goes
  // where the whole lesson would put it, so it is looked for in the lesson, not in the part.
  document.addEventListener("htmx:afterSettle", function (event) {
    var swapped = event.detail.elt;
    showCoach();
    focusFirst(swapped.closest ? swapped.closest("#lesson") || swapped : document);
    startHourglass(document);
    showSpeakers();
    readAloud();
  });

  // An error response is not swapped in: say so with the page's own (translated) message and
  // offer a reload, instead of leaving buttons that seem to do nothing.
  function showProblem(kind) {
    var box = document.getElementById("request-problem");
    if (!box) { return; }
    box.querySelectorAll("[data-problem]").forEach(function (line) {
      line.hidden = line.getAttribute("data-problem") !== kind;
    });
    box.hidden = false;
    var reload = box.querySelector("[data-reload]");
    if (reload) { reload.focus(); }
  }
  document.addEventListener("htmx:responseError", function () { showProblem("response"); });
  document.addEventListener("htmx:sendError", function () { showProblem("send"); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var box = document.getElementById("request-problem");
    if (box && event.detail.successful) { box.hidden = true; }
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("#request-problem [data-reload]")) {
      window.location.reload();
    }
  });
})();
