"""Fill catalogue entries from a JSON file: {"nb": {"msgid": "msgstr", ...}, "sv": {...}, "it": {...}}.

A plural entry's value is a list of strings, a context entry's key is "context\\x04msgid".
Used after `make translations` to write the new entries in one go; entries not in the file
are left as they are. Afterwards run `kortmatte i18n compile`.
"""

import json
import sys

from babel.messages.pofile import read_po, write_po

from tutor import ROOT


def fill(locale: str, entries: dict) -> list[str]:
    path = ROOT / "translations" / locale / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as handle:
        catalog = read_po(handle)
    unknown = []
    for key, text in entries.items():
        context, _, msgid = key.rpartition("\x04")
        message = next(
            (
                m
                for m in catalog
                if (m.id[0] if isinstance(m.id, tuple) else m.id) == msgid and (m.context or "") == context
            ),
            None,
        )
        if message is None:
            unknown.append(key)
            continue
        message.string = tuple(text) if isinstance(text, list) else text
        message.flags.discard("fuzzy")
    with path.open("wb") as handle:
        write_po(handle, catalog, width=76, ignore_obsolete=True)
    return unknown


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as handle:
        wanted = json.load(handle)
    for locale, entries in wanted.items():
        for key in fill(locale, entries):
            print(f"{locale}: no entry {key!r}", file=sys.stderr)
