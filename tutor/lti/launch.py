"""A launch checked by pylti1p3, with each refusal named so that the page can say why in the reader's language.

pylti1p3 checks the state against its cookie, the nonce (taken from :mod:`tutor.lti.nonces`),
the issuer and client id (the audience) against the registered platforms, the signature
against the platform's key set, the expiry, the deployment id and the message's claims.
:class:`CheckedLaunch` runs those checks one by one and turns a failure into a
:class:`Refused` with the reason; a launch that is refused has created nothing.
"""

from __future__ import annotations

import jwt
from pylti1p3.exception import LtiException
from pylti1p3.message_launch import MessageLaunch

from tutor.lti import key_sets
from tutor.lti.services import OneRequestConnector
from tutor.lti.tool_config import DatabaseToolConf
from tutor.models import utcnow

#: why -> HTTP status: 400 for a launch that is not one (or no longer one), 403 for one we will not let in
REASONS = {
    "no_state": 400,  # the state cookie is missing or differs: cookies blocked, or the launch came from elsewhere
    "malformed": 400,  # not a well-formed LTI 1.3 launch
    "replayed": 403,  # the nonce is unknown or used already
    "unknown_issuer": 403,
    "wrong_audience": 403,  # issued for a client id not registered for that issuer
    "bad_signature": 403,
    "expired": 403,
    "unknown_deployment": 403,
    "not_a_resource_launch": 400,  # neither a resource link launch nor a deep-linking request
    "not_a_teacher": 403,  # a deep-linking request (choosing a lesson) from someone who does not teach the course
    "no_context": 400,  # a launch from outside a course
    "no_role": 403,  # neither an instructor nor a learner
    "switched_off": 403,  # the teacher's account is switched off here
    "no_class": 403,  # a learner launch before the course's teacher has opened Kortmatte
    "class_full": 403,
}
#: Claims the tool requires of every token, beyond a valid signature.
REQUIRED_CLAIMS = ["exp", "iat"]
RESOURCE_LINK_REQUEST = "LtiResourceLinkRequest"
DEEP_LINKING_REQUEST = "LtiDeepLinkingRequest"
MESSAGE_TYPE = "https://purl.imsglobal.org/spec/lti/claim/message_type"


class Refused(Exception):
    """A launch or login that is turned away; ``reason`` is a key of :data:`REASONS`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = REASONS[reason]


def refusing(reason: str, step):
    """Run one of pylti1p3's checks; its failure becomes a :class:`Refused` for ``reason``."""
    try:
        return step()
    except LtiException as error:
        raise Refused(reason) from error


class CheckedLaunch(MessageLaunch):
    """pylti1p3's message launch whose checks say which one failed.

    The web layer passes pylti1p3's Flask request and cookie service in, and a
    :class:`tutor.lti.nonces.NonceService`; nothing here imports Flask.
    """

    _tool_config: DatabaseToolConf

    def __init__(self, request, tool_config: DatabaseToolConf, *, session_service, cookie_service) -> None:
        super().__init__(
            request,
            tool_config,
            session_service=session_service,
            cookie_service=cookie_service,
            service_connector_cls=OneRequestConnector,
        )
        self.set_jwt_verify_options({"verify_aud": False, "require": REQUIRED_CLAIMS})

    def _get_request_param(self, key: str) -> str:
        return self._request.get_param(key)

    def fetch_public_key(self, key_set_url: str):
        """The platform's key set: the kept one when fresh and holding the token's key, else fetched and kept."""
        db, now = self._tool_config.db, utcnow()
        kid = (self._jwt.get("header") or {}).get("kid")
        found = key_sets.kept(db, key_set_url, kid, now)
        if found is None:
            found = super().fetch_public_key(key_set_url)
            key_sets.keep(db, key_set_url, found, now)
        return found

    def validate_state(self):
        return refusing("no_state", super().validate_state)

    def validate_jwt_format(self):
        return refusing("malformed", super().validate_jwt_format)

    def validate_nonce(self):
        if not self._get_jwt_body().get("nonce"):
            raise Refused("malformed")
        return refusing("replayed", super().validate_nonce)

    def validate_registration(self):
        known = self._tool_config.knows_issuer(self._get_jwt_body().get("iss", ""))
        return refusing("wrong_audience" if known else "unknown_issuer", super().validate_registration)

    def validate_jwt_signature(self):
        try:
            return super().validate_jwt_signature()
        except LtiException as error:
            expired = isinstance(error.__cause__, jwt.ExpiredSignatureError)
            raise Refused("expired" if expired else "bad_signature") from error

    def validate_deployment(self):
        return refusing("unknown_deployment", super().validate_deployment)

    def validate_message(self):
        refusing("malformed", super().validate_message)
        if self._get_jwt_body().get(MESSAGE_TYPE) not in (RESOURCE_LINK_REQUEST, DEEP_LINKING_REQUEST):
            raise Refused("not_a_resource_launch")
        return self

    def save_launch_data(self):
        """Keep nothing: the claims (names, e-mail addresses) are used by this request only."""
        return self

    def claims(self) -> dict:
        """The checked launch's claims; raises :class:`Refused` when a check fails."""
        self.validate()
        return dict(self._get_jwt_body())

    def deployment_id(self) -> str:
        return str(self._get_jwt_body().get("https://purl.imsglobal.org/spec/lti/claim/deployment_id", ""))

    def platform(self):
        return self._tool_config.platform(self.get_iss(), self.get_client_id())
