"""Sending one e-mail through the school's SMTP server, with the standard library only.

The settings come from the app's configuration (MAIL_* in tutor/config.py); STARTTLS is on unless switched off,
so a password and a reset link do not cross the network in the clear.
"""

from __future__ import annotations

import logging
import smtplib
import ssl
import threading
from dataclasses import dataclass
from email.message import EmailMessage

#: Seconds to wait for the mail server before giving up.
TIMEOUT = 20


@dataclass(frozen=True)
class MailServer:
    host: str
    port: int
    sender: str
    username: str = ""
    password: str = ""
    starttls: bool = True

    @classmethod
    def from_config(cls, config) -> MailServer:
        return cls(
            host=config["MAIL_SERVER"],
            port=config["MAIL_PORT"],
            sender=config["MAIL_FROM"],
            username=config["MAIL_USERNAME"],
            password=config["MAIL_PASSWORD"],
            starttls=config["MAIL_STARTTLS"],
        )


def send(server: MailServer, to: str, subject: str, body: str) -> None:
    """Send a plain-text e-mail; raises OSError or smtplib.SMTPException when the server cannot take it."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = server.sender, to, subject
    message.set_content(body)
    with smtplib.SMTP(server.host, server.port, timeout=TIMEOUT) as smtp:
        if server.starttls:
            smtp.starttls(context=ssl.create_default_context())
        if server.username:
            smtp.login(server.username, server.password)
        smtp.send_message(message)


def send_later(server: MailServer, to: str, subject: str, body: str, logger: logging.Logger, what: str) -> None:
    """Send from a thread, so the page answers first and its timing does not tell whether an e-mail was written."""

    def send_now() -> None:
        try:
            send(server, to, subject, body)
        except Exception:  # noqa: BLE001 - a mail server that is down must not stop the app; the operator sees it
            logger.exception("the %s e-mail could not be sent", what)

    threading.Thread(target=send_now, name=f"{what}-mail".replace(" ", "-"), daemon=True).start()
