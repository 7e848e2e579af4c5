"""Translatable text for the pure core, which must not import Flask.

Core modules mark English source text with :func:`N_` so that ``pybabel extract``
finds it, and carry it as a :class:`Text` (the message id with its fields); the text is
translated where it is shown by :func:`say`, the one way a text becomes words (the web
layer's ``say`` passes it the request's locale and catalogue).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from babel.support import NullTranslations, Translations

from tutor import ROOT
from tutor.signs import write

LOCALES = ("en", "nb", "sv", "it")
DEFAULT_LOCALE = "en"
TRANSLATIONS_DIR = ROOT / "translations"


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it yet."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a singular/plural pair (chosen by the ``num`` field when shown) for extraction."""
    return singular, plural


def NC_(context: str, message: str) -> tuple[str, str]:
    """Mark a message with its context (a msgctxt) for extraction: a short text with two meanings."""
    return context, message


def NPC_(context: str, singular: str, plural: str) -> tuple[str, str, str]:
    """Mark a singular/plural pair with its context for extraction."""
    return context, singular, plural


#: A colour's name said as the colour itself ("Colour to follow: green", "chose green") or
#: describing a card ("the green 7"); some languages inflect the adjective.
COLOUR_NOUN = "colour name, as a noun"
COLOUR_ADJECTIVE = "colour name, describing a card"


def plural_forms(value: Any) -> tuple[str, str, str] | None:
    """A text with a plural form as (singular, plural, the field that counts), or None for any other value.

    Content files write it as a small table: ``{ one = "...", other = "...", count = "field" }``.
    """
    if isinstance(value, dict) and set(value) == {"one", "other", "count"}:
        return value["one"], value["other"], value["count"]
    return None


@dataclass(frozen=True)
class Text:
    """A message id with its fields, translated and filled only when shown."""

    msgid: str
    params: dict = field(default_factory=dict)
    plural: str = ""  # with a plural form, the ``num`` field chooses between them
    context: str = ""  # a msgctxt, for a short msgid with more than one meaning ("Last round", "won")
    #: A sentence that may begin with a field ("your jack" in "Your jack beats ..."): its first letter is written as a
    #: capital once filled, wherever the translation puts the field.
    sentence: bool = False

    def to_dict(self) -> dict:
        """Plain JSON; a field that is itself a Text (a colour's name) becomes its dict too."""
        params = {key: value.to_dict() if isinstance(value, Text) else value for key, value in self.params.items()}
        data = {"msgid": self.msgid, "params": params}
        if self.plural:
            data["plural"] = self.plural
        if self.context:
            data["context"] = self.context
        if self.sentence:
            data["sentence"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Text:
        return cls(
            data["msgid"],
            dict(data.get("params", {})),
            data.get("plural", ""),
            data.get("context", ""),
            data.get("sentence", False),
        )

    @classmethod
    def count(cls, forms: tuple, num: int, **params) -> Text:
        """A text with singular and plural forms for ``num`` things: from :func:`NP_`, or with a context
        first from :func:`NPC_`."""
        context, singular, plural = forms if len(forms) == 3 else ("", *forms)
        return cls(singular, {**params, "num": num}, plural, context)

    @classmethod
    def from_content(cls, value, params: dict) -> Text:
        """A content text filled with ``params``: a string, or a plural table whose ``count`` names the
        field that counts (:func:`plural_forms`)."""
        forms = plural_forms(value)
        if forms is None:
            return cls(value, params)
        singular, plural, counted = forms
        return cls(singular, {**params, "num": params[counted]}, plural)

    def as_sentence(self) -> Text:
        """This text as a whole sentence, written with a capital first letter whichever field starts it."""
        return Text(self.msgid, self.params, self.plural, self.context, sentence=True)

    @classmethod
    def in_context(cls, marked: tuple[str, str], **params) -> Text:
        """A text whose msgid has a context, from :func:`NC_` ("Last round" as a heading)."""
        context, msgid = marked
        return cls(msgid, params, context=context)


@cache
def _catalogue(locale: str) -> NullTranslations:
    if locale == DEFAULT_LOCALE:
        return NullTranslations()
    return Translations.load(str(TRANSLATIONS_DIR), [locale])


def say(text, locale: str = DEFAULT_LOCALE, catalogue: NullTranslations | None = None) -> str:
    """Anything the core says, as words for a reader of ``locale``: the one way text becomes words.

    ``text`` is a :class:`Text` (or its stored dict), a calculation (written in the reader's
    school signs, :mod:`tutor.signs`), a plain English content string (a game's name, a rule:
    translated as it is), or a value shown as it is. Fields that are Texts are said first, so
    "Computer 1 and Computer 3" fills a sentence whole; a Text with a plural form chooses it by
    ``num``, and one with a context is looked up under it (pgettext). ``catalogue`` (a gettext
    Translations object) is the locale's own unless given: the web layer passes the request's.
    A translation whose fields do not fit its message shows in English (a stored text from
    an older catalogue still shows); a core text whose own fields do not fit raises.
    """
    if catalogue is None:
        locale = locale if locale in LOCALES else DEFAULT_LOCALE
        catalogue = _catalogue(locale)
    if text is None:
        return ""
    if isinstance(text, str):
        return catalogue.gettext(text) if text else ""
    if isinstance(text, dict):
        if "maths" in text:
            return write(text, locale)
        text = Text.from_dict(text)
    if not isinstance(text, Text):
        return str(text)
    params = {
        key: say(value, locale, catalogue) if isinstance(value, (Text, dict)) else value
        for key, value in text.params.items()
    }
    english = text.msgid if not text.plural or params.get("num") == 1 else text.plural
    if text.plural:
        num = params["num"]
        translated = (
            catalogue.npgettext(text.context, text.msgid, text.plural, num)
            if text.context
            else catalogue.ngettext(text.msgid, text.plural, num)
        )
    else:
        translated = catalogue.pgettext(text.context, text.msgid) if text.context else catalogue.gettext(text.msgid)
    try:
        words = translated % params if params else translated
    except (KeyError, ValueError, TypeError):  # a broken translation: English, which must fill (else a bug here)
        words = english % params if params else english
    return words[:1].upper() + words[1:] if text.sentence else words
