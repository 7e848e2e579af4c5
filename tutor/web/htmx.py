"""How a page answers htmx: only the fragment htmx asked for, the whole page otherwise."""

from __future__ import annotations

from flask import after_this_request, request

#: The request headers that decide between a fragment and the whole page.
FRAGMENT_HEADERS = ("HX-Request", "HX-Boosted", "HX-History-Restore-Request")


def wants_fragment() -> bool:
    """True for an htmx request that swaps part of the page.

    Boosted links and the back button's history restore (htmx keeps no history cache here)
    need the whole page. The answer then varies by these headers, and says so.
    """
    after_this_request(_vary_by_fragment_headers)
    headers = request.headers
    return (
        bool(headers.get("HX-Request"))
        and not headers.get("HX-Boosted")
        and not headers.get("HX-History-Restore-Request")
    )


def _vary_by_fragment_headers(response):
    response.vary.update(FRAGMENT_HEADERS)
    return response
