"""An OpenID Connect identity provider on this machine, built from Authlib's own authorization server.

It plays Feide (or Google, or Microsoft Entra ID): the authorization code grant with OpenID
Connect and PKCE, a key set, a discovery document, and Feide's groups API answering in its
documented shapes (https://docs.feide.no/reference/apis/groups_api/). Whoever is in
:attr:`IdentityProvider.next_person` signs in at once. :attr:`IdentityProvider.twist` makes
it misbehave the way a refused sign-in needs: another issuer or audience, an expired
id_token, or an error instead of a code.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import ClientMixin, grants
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oidc.core import UserInfo
from authlib.oidc.core.grants import OpenIDCode
from authlib.oidc.core.models import AuthorizationCodeMixin
from flask import Flask, jsonify, redirect, request
from joserfc.jwk import RSAKey
from waitress.server import create_server
from werkzeug.urls import urlencode

CLIENT_ID = "kortmatte-test-client"
CLIENT_SECRET = "kortmatte-test-secret"
ORG = "fc:org:feide.osloskolen.no"
SCHOOL = "fc:org:feide.osloskolen.no:unit:NO975278964"


def teaching_group(group_id: str, name: str, teaches: bool) -> dict:
    """An ``fc:gogroup`` as the groups API lists it: the person is its teacher (admin, faculty) or one of its pupils."""
    return {
        "id": f"fc:gogroup:feide.osloskolen.no:b:NO975278964:{group_id}:2026-08-01:2027-06-30",
        "type": "fc:gogroup",
        "displayName": name,
        "membership": {
            "basic": "admin" if teaches else "member",
            "affiliation": "faculty" if teaches else "student",
            "displayName": "Lærer" if teaches else "Elev",
        },
        "parent": SCHOOL,
        "notAfter": "2027-06-30T22:00:00Z",
        "notBefore": "2026-07-31T22:00:00Z",
        "go_type": "b",
        "go_type_displayName": "basisgruppe",
    }


def organisation(affiliation: str) -> dict:
    """The person's school owner (``fc:org``), with their affiliations there."""
    return {
        "id": ORG,
        "type": "fc:org",
        "displayName": "Oslo kommune",
        "membership": {"basic": "member", "affiliation": [affiliation, "member"], "primaryAffiliation": affiliation},
        "orgType": ["primary_and_lower_secondary_owner"],
    }


@dataclass
class Person:
    """A person with an account at the provider: the id_token's claims and their groups."""

    sub: str
    name: str
    given_name: str
    groups: list = field(default_factory=list)
    email: str = ""
    hd: str = ""

    def claims(self) -> dict:
        found = {"sub": self.sub, "name": self.name, "given_name": self.given_name}
        if self.email:
            found["email"] = self.email
        if self.hd:
            found["hd"] = self.hd
        return found


TEACHER = Person(
    "f2a1d0c4-teacher", "Kari Nordmann", "Kari", [organisation("faculty"), teaching_group("6a", "6A matematikk", True)]
)
PUPIL = Person(
    "9b7e3c11-pupil", "Ola Nordmann", "Ola", [organisation("student"), teaching_group("6a", "6A matematikk", False)]
)


class Client(ClientMixin):
    """Kortmatte as the provider knows it: one client id and secret, any redirect URI of the app under test."""

    def get_client_id(self):
        return CLIENT_ID

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        return scope

    def check_redirect_uri(self, redirect_uri):
        return "/sign-in/" in redirect_uri and redirect_uri.endswith("/done")

    def check_client_secret(self, client_secret):
        return secrets.compare_digest(client_secret, CLIENT_SECRET)

    def check_endpoint_auth_method(self, method, endpoint):
        return method in ("client_secret_basic", "client_secret_post")

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type == "authorization_code"


@dataclass
class Code(AuthorizationCodeMixin):
    code: str
    person: Person
    redirect_uri: str
    scope: str
    nonce: str | None
    code_challenge: str | None
    code_challenge_method: str | None

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return int(time.time())

    def get_acr(self):
        return None

    def get_amr(self):
        return None


class IdentityProvider:
    """The provider's state: its people, its key, the codes and tokens it gave out, and how it misbehaves."""

    def __init__(self) -> None:
        self.base_url = ""
        self.key = RSAKey.generate_key(2048, parameters={"kid": "test-key", "use": "sig", "alg": "RS256"})
        self.next_person: Person = TEACHER
        self.twist: dict = {}  # "iss", "aud", "expired", "error": the next answers misbehave so
        self.codes: dict[str, Code] = {}
        self.tokens: dict[str, Person] = {}
        self.groups_asked = 0

    @property
    def issuer(self) -> str:
        return self.base_url

    def settings(self, prefix: str = "FEIDE") -> dict:
        """The app settings that point Kortmatte's provider ``prefix`` at this one."""
        found = {
            f"{prefix}_CLIENT_ID": CLIENT_ID,
            f"{prefix}_CLIENT_SECRET": CLIENT_SECRET,
            f"{prefix}_METADATA_URL": f"{self.base_url}/.well-known/openid-configuration",
        }
        if prefix == "FEIDE":
            found["FEIDE_GROUPS_URL"] = f"{self.base_url}/groups/me/groups"
        if prefix == "ENTRA":
            found["ENTRA_TENANT"] = "school-tenant"
        return found


def build_app(provider: IdentityProvider) -> Flask:
    """The provider's web app: discovery, authorization, token, key set and the groups API."""
    app = Flask("identity_provider")
    app.config["SECRET_KEY"] = "identity-provider"

    class CodeGrant(grants.AuthorizationCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

        def save_authorization_code(self, code, request):
            provider.codes[code] = Code(
                code,
                request.user,
                request.payload.redirect_uri,
                request.payload.scope,
                request.payload.data.get("nonce"),
                request.payload.data.get("code_challenge"),
                request.payload.data.get("code_challenge_method"),
            )

        def query_authorization_code(self, code, client):
            return provider.codes.get(code)

        def delete_authorization_code(self, authorization_code):
            provider.codes.pop(authorization_code.code, None)

        def authenticate_user(self, authorization_code):
            return authorization_code.person

    class OpenIdCode(OpenIDCode):
        def exists_nonce(self, nonce, request):
            return any(code.nonce == nonce for code in provider.codes.values())

        def resolve_client_private_key(self, client):
            return provider.key

        def get_client_claims(self, client):
            now = int(time.time())
            twist = provider.twist
            return {
                "iss": twist.get("iss", provider.issuer),
                "aud": [twist.get("aud", CLIENT_ID)],
                "iat": now - 7200 if twist.get("expired") else now,
                "exp": now - 3600 if twist.get("expired") else now + 600,
            }

        def get_encode_header(self, client):
            return {"alg": "RS256", "kid": "test-key"}

        def generate_user_info(self, user, scope):
            return UserInfo(user.claims())

    def save_token(token, request):
        provider.tokens[token["access_token"]] = request.user

    server = AuthorizationServer(app, query_client=lambda client_id: Client() if client_id == CLIENT_ID else None)
    server.save_token = save_token
    server.register_grant(CodeGrant, [OpenIdCode(require_nonce=True), CodeChallenge(required=True)])

    @app.get("/.well-known/openid-configuration")
    def discovery():
        base = provider.base_url
        return jsonify(
            issuer=provider.issuer,
            authorization_endpoint=f"{base}/authorize",
            token_endpoint=f"{base}/token",
            jwks_uri=f"{base}/jwks",
            response_types_supported=["code"],
            subject_types_supported=["public"],
            id_token_signing_alg_values_supported=["RS256"],
            code_challenge_methods_supported=["S256"],
            scopes_supported=["openid", "profile", "groups-edu"],
        )

    @app.get("/authorize")
    def authorize():
        if provider.twist.get("error"):
            query = urlencode({"error": provider.twist["error"], "state": request.args.get("state", "")})
            return redirect(f"{request.args['redirect_uri']}?{query}")
        grant = server.get_consent_grant(end_user=provider.next_person)
        return server.create_authorization_response(grant_user=provider.next_person, grant=grant)

    @app.post("/token")
    def token():
        return server.create_token_response()

    @app.get("/jwks")
    def jwks():
        return jsonify(keys=[provider.key.as_dict(private=False)])

    @app.get("/groups/me/groups")
    def groups():
        provider.groups_asked += 1
        scheme, _, access_token = request.headers.get("Authorization", "").partition(" ")
        person = provider.tokens.get(access_token) if scheme.lower() == "bearer" else None
        if person is None:
            return jsonify(error="invalid_token"), 401
        return jsonify(person.groups)

    return app


@contextmanager
def serving_provider() -> Iterator[IdentityProvider]:
    """The provider served by waitress in a thread on a free local port."""
    provider = IdentityProvider()
    server = create_server(build_app(provider), host="127.0.0.1", port=0, threads=2)
    provider.base_url = f"http://127.0.0.1:{server.effective_port}"
    stopping = threading.Event()

    def serve() -> None:
        try:
            server.run()
        except OSError:
            if not stopping.is_set():
                raise

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield provider
    finally:
        stopping.set()
        server.close()
        thread.join(timeout=5)
