"""CSRF protection on every POST (htmx sends the token as a header) and strict browser policies."""

from __future__ import annotations

from flask import Flask
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()

# Everything comes from the app itself: no inline script or style, no eval, no third party.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


# No page needs a camera, a microphone, the position or payments: a script that got in cannot ask for them either.
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "camera",
        "microphone",
        "geolocation",
        "payment",
        "usb",
        "midi",
        "magnetometer",
        "gyroscope",
        "accelerometer",
        "display-capture",
    )
)
HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Permissions-Policy": PERMISSIONS_POLICY,
    # another site's window opened from ours, or ours from theirs, cannot reach into it
    "Cross-Origin-Opener-Policy": "same-origin",
    # no other site may embed our files or pages (a pupil's page read by a script elsewhere)
    "Cross-Origin-Resource-Policy": "same-origin",
}


def _headers(response):
    # A page that sets its own policy (see framable_by) decides its own framing.
    own_policy = "Content-Security-Policy" in response.headers
    for name, value in HEADERS.items():
        if not (own_policy and name == "X-Frame-Options"):
            response.headers.setdefault(name, value)
    return response


def framable_by(response, sources: str):
    """Let ``sources`` (CSP frame-ancestors sources) show this one response in a frame; every other page refuses."""
    response.headers["Content-Security-Policy"] = "; ".join(
        f"frame-ancestors {sources}" if part.startswith("frame-ancestors ") else part
        for part in CONTENT_SECURITY_POLICY.split("; ")
    )
    return response


def with_form_action(sources: str) -> str:
    """The policy with forms that may also go to ``sources`` (a school-account sign-in is sent on to its provider)."""
    return "; ".join(
        f"form-action 'self' {sources}" if part.startswith("form-action ") else part
        for part in CONTENT_SECURITY_POLICY.split("; ")
    )


class ForwardedCheck:
    """With ``PROXIES`` set, say once in the log when a request comes without X-Forwarded-For.

    Then no proxy stands in front (or it does not set the header), and a visitor could choose the address the
    guessing limits count by sending the header themselves.
    """

    def __init__(self, wsgi_app, logger) -> None:
        self.wsgi_app, self.logger, self.warned = wsgi_app, logger, False

    def __call__(self, environ, start_response):
        if not self.warned and "HTTP_X_FORWARDED_FOR" not in environ:
            self.warned = True
            self.logger.warning(
                "PROXIES is set, but a request came without X-Forwarded-For: is a proxy in front of the app? "
                "Without one, anyone can choose the address the sign-in limits count."
            )
        return self.wsgi_app(environ, start_response)


def init_app(app: Flask) -> None:
    csrf.init_app(app)
    app.after_request(_headers)
