"""Sending one e-mail through the school's SMTP server, with the standard library only.

The settings come from the app's configuration (MAIL_* in tutor/config.py); STARTTLS is on unless switched off,
so a password and a reset link do not cross the network in the clear.
"""

from __future__ import annotations

import smtplib
import ssl
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
