"""pylti1p3's connector to a platform's services (names and roles), its access tokens kept for one request only.

pylti1p3 leaves the caching of access tokens to the application. A token is asked for with the
tool's signed client assertion and lives an hour, but Kortmatte calls a platform's services once
per launch: keeping a token in the connector (one request) is enough, and no token is stored.
"""

from __future__ import annotations

from pylti1p3.service_connector import ServiceConnector


class OneRequestConnector(ServiceConnector):
    """A service connector whose access tokens live as long as it does (one request)."""

    def __init__(self, registration, requests_session=None) -> None:
        super().__init__(registration, requests_session)
        self.tokens: dict[str, str] = {}

    def _get_cached_access_token(self, scope_key: str) -> str | None:
        return self.tokens.get(scope_key)

    def _cache_access_token(self, scope_key: str, access_token: str, expires_in: float) -> None:
        self.tokens[scope_key] = access_token
