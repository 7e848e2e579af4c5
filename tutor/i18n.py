"""Localisation for the web layer: the locale choice and translating core Text values."""

from __future__ import annotations

from flask import g, request, session
from flask_babel import Babel, get_locale, get_translations, gettext

from tutor.text import LOCALES, spell

LANGUAGE_NAMES = {"en": "English", "nb": "Norsk bokmål", "sv": "Svenska", "it": "Italiano"}

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


def current_locale() -> str:
    return str(get_locale() or "en")


def say(text) -> str:
    """Translate a core :class:`Text` (fields may be Texts themselves) for the current locale."""
    return spell(text, get_translations(), current_locale())


def tr(message: str) -> str:
    """Translate a plain English content string (a rule, a name) for the current locale."""
    return gettext(message) if message else ""


def init_app(app) -> None:
    babel.init_app(app, locale_selector=select_locale, default_translation_directories=str(app.config["TRANSLATIONS_DIR"]))
    app.jinja_env.globals.update(say=say, tr=tr, current_locale=current_locale, LANGUAGE_NAMES=LANGUAGE_NAMES, LOCALES=LOCALES)
    app.jinja_env.policies["ext.i18n.trimmed"] = True
