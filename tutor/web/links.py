"""Links that a page builds hundreds of times (a misconception report names pupils and replays in every row).

Flask's ``url_for`` matches the endpoint's rule and quotes every value again on each call; :func:`link` builds
each endpoint's address once per request with marks in place of the values and then only fills them in. Only
values made of unreserved characters (letters, digits, ``-``, ``_``, ``.``, ``~``) are filled in so: they read
the same in a path and in a query, so the address is the one ``url_for`` builds. Anything else, and rules whose
converters refuse the marks, go to ``url_for``.
"""

from __future__ import annotations

import re

from flask import g, url_for
from werkzeug.routing import BuildError

UNRESERVED = re.compile(r"[A-Za-z0-9_.~-]+")
#: What stands for the n-th value while the pattern is built: unreserved itself, and in no rule of this app.
MARK = "qq{}xlinkx"


def link(endpoint: str, **values) -> str:
    """``url_for(endpoint, **values)`` for a plain endpoint; a list value (``pupils=[...]``) repeats its name."""
    lists = {name: value for name, value in values.items() if isinstance(value, list | tuple)}
    scalars = {name: value for name, value in values.items() if name not in lists}
    texts = {name: str(value) for name, value in scalars.items() if value is not None}
    listed = [str(item) for items in lists.values() for item in items]
    plain = all(UNRESERVED.fullmatch(text) for text in [*texts.values(), *listed])
    if len(texts) != len(scalars) or not plain or any(name.startswith("_") for name in values):
        return url_for(endpoint, **values)
    pattern = _pattern(endpoint, tuple(texts))
    if pattern is None:
        return url_for(endpoint, **values)
    address = pattern.format(*texts.values())
    if not listed:
        return address
    tail = "&".join(f"{name}={item}" for name, items in lists.items() for item in items)
    return f"{address}{'&' if '?' in address else '?'}{tail}"


def _pattern(endpoint: str, names: tuple[str, ...]) -> str | None:
    """The endpoint's address with ``{0}``, ``{1}``... for the named values, worked out once per request."""
    patterns = g.setdefault("_link_patterns", {})
    key = (endpoint, names)
    if key not in patterns:
        marks = {name: MARK.format(index) for index, name in enumerate(names)}
        try:
            built = url_for(endpoint, **marks)
        except (BuildError, ValueError):
            built = None
        if (
            built is not None
            and all(built.count(mark) == 1 for mark in marks.values())
            and not re.search("[{}]", built)
        ):
            for index, mark in enumerate(marks.values()):
                built = built.replace(mark, f"{{{index}}}")
            patterns[key] = built
        else:
            patterns[key] = None
    return patterns[key]


def init_app(app) -> None:
    app.jinja_env.globals.update(link=link)
