"""How a page answers htmx: only the fragment htmx asked for, the whole page otherwise."""

from __future__ import annotations

from flask import request


def wants_fragment() -> bool:
    """True for an htmx request that swaps part of the page.

    Boosted links and the back button's history restore (htmx keeps no history cache here)
    need the whole page.
    """
    headers = request.headers
    return bool(headers.get("HX-Request")) and not headers.get("HX-Boosted") and not headers.get("HX-History-Restore-Request")
