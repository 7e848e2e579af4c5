"""Localisation for the web layer: the locale choice and translating core Text values."""

from __future__ import annotations

from typing import NamedTuple

from flask import current_app, g, request, session
from flask_babel import Babel, get_locale, get_translations
from markupsafe import Markup

from tutor import speech, text
from tutor.text import LOCALES

LANGUAGE_NAMES = {"en": "English", "nb": "Norsk bokmål", "sv": "Svenska", "it": "Italiano"}
#: The Babel locale that writes each language's dates, times and numbers: English as in Britain (schools here use
#: 17/11/2026 and the 24-hour clock, not 11/17/26 and 5:30 PM).
FORMAT_LOCALES = {"en": "en_GB"}

babel = Babel()


def select_locale() -> str:
    """The reader's own choice first; then the class's language on a class's sign-in pages
    (a Norwegian child on an English tablet reads Norwegian); then the browser's languages."""
    chosen = session.get("locale")
    if chosen in LOCALES:
        return chosen
    if g.get("class_locale") in LOCALES:
        return g.class_locale
    return request.accept_languages.best_match(LOCALES) or "en"


def _for_locale(name: str, make):
    """``make()`` worked out once per request and locale (a teacher's page may print pupils' cards under force_locale).

    Flask-Babel looks the locale and its catalogue up again on every gettext call, turning the
    locale into its name each time: a lesson page makes hundreds of calls. The answer is kept
    beside Flask-Babel's own choice of locale (its state in ``g``, which ``force_locale``
    changes), so a call costs one look into the request.
    """
    state = g.get("_flask_babel")
    locale = getattr(state, "babel_locale", None)
    if locale is None:  # not chosen yet in this request: Flask-Babel chooses it and keeps its state
        locale = get_locale()
        state = g.get("_flask_babel")
    cached = getattr(state, name, None)
    if cached is None or cached[0] is not locale:
        cached = (locale, make(locale))
        setattr(state, name, cached)
    return cached[1]


def translations():
    """The current locale's catalogue."""
    return _for_locale("_translations", lambda _locale: get_translations())


def current_locale() -> str:
    return _for_locale("_locale_name", lambda locale: str(locale or "en"))


def format_locale() -> str:
    """The Babel locale for the reader's dates, times and numbers (:data:`FORMAT_LOCALES`)."""
    locale = current_locale()
    return FORMAT_LOCALES.get(locale, locale)


def say(what) -> str:
    """:func:`tutor.text.say` for the reader of this request: a core Text, a calculation or a content string."""
    return text.say(what, current_locale(), translations())


class Spoken(NamedTuple):
    """What a speaker button reads aloud: the words for the device's voice, and the recorded clips that say them
    on a device without one (none when some piece has no recording)."""

    words: str
    clips: list[str]


def spoken(texts, said=()) -> Spoken:
    """What a speaker button reads aloud (issue 28): ``texts`` as :func:`say` shows them and the lines
    ``said`` already (plain text, or a page's markup such as a stacked fraction), with their numbers, signs and
    cards in words (:mod:`tutor.speech`)."""
    said = [line.striptags() if isinstance(line, Markup) else str(line) for line in said]  # a stacked fraction's tags
    lines = [line for line in [say(each) for each in texts] + said if line]
    locale = current_locale()
    words = " ".join(speech.speakable(line, locale) for line in lines)
    clips = current_app.extensions["recordings"].clip_urls(lines, locale) if words else []  # tutor.web.audio
    return Spoken(words, clips)


def speakable_choices(choices) -> list[str]:
    """A question's answers to choose from as the reader sees them, each a sentence of its own, so that a
    voice pauses between them ("Yes. No.")."""
    return sentences(choice["label"] for choice in choices)


def sentences(texts) -> list[str]:
    """Core texts as the reader sees them, each ending as a sentence, so that a voice pauses between lines that
    a page shows one below the other ("Round 1 of 10. You: 26 cards.")."""
    lines = (say(each) for each in texts)
    return [line if line.endswith((".", "?", "!")) else f"{line}." for line in lines if line]


def init_app(app) -> None:
    babel.init_app(
        app, locale_selector=select_locale, default_translation_directories=str(app.config["TRANSLATIONS_DIR"])
    )
    app.jinja_env.globals.update(
        say=say,
        spoken=spoken,
        speakable_choices=speakable_choices,
        sentences=sentences,
        current_locale=current_locale,
        LANGUAGE_NAMES=LANGUAGE_NAMES,
        LOCALES=LOCALES,
    )
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    # as Flask-Babel installs them, with the catalogue looked up once per request
    app.jinja_env.install_gettext_callables(
        lambda message: translations().ugettext(message),
        lambda singular, plural, n: translations().ungettext(singular, plural, n),
        newstyle=True,
        pgettext=lambda context, message: translations().upgettext(context, message),
        npgettext=lambda context, singular, plural, n: translations().unpgettext(context, singular, plural, n),
    )
