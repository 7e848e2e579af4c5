"""A learning platform from a published package (lti1p3platform) that drives Kortmatte's LTI routes in tests.

lti1p3platform builds what a real platform sends: the login initiation, the signed id_token of a
resource-link or deep-linking launch (with its names-and-roles and grades claims), and it checks
the tool's signed deep-linking response against the tool's published key set; its token endpoint
checks the tool's signed client assertion and issues access tokens, and its names-and-roles
service checks them and serves the class list. Its abstract parts (the HTTP plumbing) are filled
in here with the Flask test client and a stand-in for ``requests.Session`` (:meth:`Platform.serve`);
the platform's key set is served to pylti1p3 by patching its key-set fetch: no real network.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import requests
from jwcrypto.jwk import JWK
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.membership import Context
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request
from lti1p3platform.score import UpdateScoreStatus
from lti1p3platform.service_connector import AssignmentsGradesService, NamesRoleProvisioningService

ISSUER = "https://lms.example"
CLIENT_ID = "kortmatte-at-lms"
DEPLOYMENT = "lms-deployment-1"
LOGIN_URL = f"{ISSUER}/lti/auth"
TOKEN_URL = f"{ISSUER}/lti/token"
KEYSET_URL = f"{ISSUER}/lti/jwks"
MEMBERSHIPS_URL = f"{ISSUER}/courses/42/memberships"
LINEITEMS_URL = f"{ISSUER}/courses/42/lineitems"
LINEITEM_URL = f"{LINEITEMS_URL}/7"
TOOL = "http://localhost"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


class PlatformConfig(LTI1P3PlatformConfAbstract):
    """The platform's registration of Kortmatte: its own key pair, and the tool's addresses and key set."""

    def init_platform_config(self, **kwargs) -> None:
        self.tool_client = kwargs["tool_client"]
        self.client_id = kwargs.get("client_id", CLIENT_ID)
        self.key = kwargs.get("key") or JWK.generate(kty="RSA", size=2048)

    def get_registration_by_params(self, **kwargs) -> Registration:
        return (
            Registration()
            .set_iss(ISSUER)
            .set_client_id(self.client_id)
            .set_deployment_id(DEPLOYMENT)
            .set_oidc_login_url(f"{TOOL}/lti/login")
            .set_launch_url(f"{TOOL}/lti/launch")
            .set_deeplink_launch_url(f"{TOOL}/lti/launch")
            .set_tool_key_set_url(f"{TOOL}/lti/jwks")
            .set_platform_private_key(self.key.export_to_pem(private_key=True, password=None).decode())
            .set_platform_public_key(self.key.export_to_pem().decode())
        )

    def fetch_public_key(self, key_set_url: str):
        """The tool's key set, fetched from Kortmatte through the test client."""
        return self.tool_client.get(urlsplit(key_set_url).path).get_json()


class QueryRequest(Request):
    """The browser's request to the platform's authorisation endpoint, as lti1p3platform reads it."""

    def build_metadata(self, request: dict):
        return {"method": "GET", "form_data": {}, "get_data": request, "headers": {}, "path": "/lti/auth"}


class ServiceRequest(Request):
    """A tool's request to one of the platform's services."""

    def build_metadata(self, request: dict):
        return request


class ClassList(NamesRoleProvisioningService):
    """The course's members, as the platform's names and roles service serves them."""

    def __init__(self, request, platform_config, members: list[dict]) -> None:
        super().__init__(request, platform_config, MEMBERSHIPS_URL)
        self.members = members

    def get_member_data_page(self, page=1, limit=None, role=None, since=None):
        return {"content": [dict(m) for m in self.members], "has_next": False}

    def get_context_by_id(self) -> Context:
        return Context(id="course-42", label="5B", title="Maths 5B")


class Gradebook(AssignmentsGradesService):
    """The platform's scores service: keeps the scores posted to its one line item (only scores are used)."""

    def __init__(self, request, platform_config, scores: list[dict]) -> None:
        super().__init__(request, platform_config, LINEITEMS_URL, LINEITEM_URL)
        self.scores = scores

    def update_score(self, line_item_id, score):
        self.scores.append(dict(score, line_item=line_item_id))
        return UpdateScoreStatus.SUCCESS

    def find_lineitems(self, *args, **kwargs):
        raise NotImplementedError

    def find_lineitem(self, line_item_id):
        raise NotImplementedError

    def create_lineitem(self, creation_data):
        raise NotImplementedError

    def update_lineitem(self, update_data):
        raise NotImplementedError

    def delete_lineitem(self, line_item_id):
        raise NotImplementedError

    def get_results(self, *args, **kwargs):
        raise NotImplementedError


class Reply:
    """What ``requests`` returns, as much of it as pylti1p3 reads."""

    def __init__(self, url: str, status: int, body) -> None:
        self.url, self.status_code, self.ok, self.headers = url, status, 200 <= status < 300, {}
        self.content = json.dumps(body).encode() if body is not None else b""

    def json(self):
        return json.loads(self.content)


class OIDCLogin(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs) -> None:
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> str:
        return url


class Launch(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data, **kwargs):
        return launch_data


class Platform:
    """One platform: starts logins, signs launches, reads the tool's deep-linking responses."""

    def __init__(self, tool_client, client_id: str = CLIENT_ID, key: JWK | None = None) -> None:
        self.config = PlatformConfig(tool_client=tool_client, client_id=client_id, key=key)
        self.registration = self.config.get_registration()

        self.key_set_fetches = 0
        self.members: list[dict] = []  # the course's class list (names and roles)
        self.calls: list[str] = []  # the service URLs the tool called
        self.scores: list[dict] = []  # the scores the gradebook accepted
        self.down = False  # the services answer 503

    def key_set(self) -> dict:
        self.key_set_fetches += 1
        return self.config.get_jwks()

    def rotate_key(self) -> None:
        """The platform signs with a new key (a new kid); its key set publishes only that one."""
        self.config.key = JWK.generate(kty="RSA", size=2048)
        self.config._registration = None
        self.registration = self.config.get_registration()

    def serve(self, monkeypatch) -> None:
        """Answer the tool's HTTP calls (pylti1p3 uses ``requests.Session``) with this platform's services."""
        platform = self

        def post(session, url, data=None, headers=None, **kwargs):
            platform.calls.append(url)
            if platform.down:
                return Reply(url, 503, None)
            if url == TOKEN_URL:
                return Reply(url, 200, platform.config.get_access_token(dict(data)))
            if url == f"{LINEITEM_URL}/scores":
                request = ServiceRequest({"method": "POST", "headers": headers or {}, "json": json.loads(data)})
                answer = Gradebook(request, platform.config, platform.scores).handle_update_score("7")
                return Reply(url, answer.code, answer.result)
            return Reply(url, 404, None)

        def get(session, url, headers=None, **kwargs):
            platform.calls.append(url)
            if url.startswith(MEMBERSHIPS_URL):
                request = ServiceRequest({"method": "GET", "get_data": {}, "headers": headers or {}, "path": url})
                answer = ClassList(request, platform.config, platform.members).handle_get_members()
                return Reply(url, answer.code, answer.result)
            return Reply(url, 404, None)

        monkeypatch.setattr(requests.Session, "post", post)
        monkeypatch.setattr(requests.Session, "get", get)

    def launch(
        self,
        browser,
        user_id: str,
        roles,
        *,
        given_name: str | None = "Emma",
        family_name: str | None = "Nordmann",
        context: tuple[str, str] = ("course-42", "Maths 5B"),
        resource_link: str = "link-1",
        custom: dict | None = None,
        deep_linking_return_url: str | None = None,
        memberships_url: str | None = None,
        lineitems_url: str | None = None,
        lineitem_url: str | None = None,
        sign=None,
    ):
        """A whole launch in ``browser`` (a test client): login initiation, authorisation, the posted id_token.

        ``sign`` may change the signed message first (to forge or break it); returns the tool's answer to the post.
        """
        login = OIDCLogin(None, self.config)
        login.set_lti_message_hint(hint=resource_link)
        started = browser.get(login.initiate_login(user_id))
        if started.status_code != 302:
            return started
        authorisation = {key: values[0] for key, values in parse_qs(urlsplit(started.location).query).items()}
        message = Launch(QueryRequest(authorisation), self.config)
        full_name = " ".join(part for part in (given_name, family_name) if part) or None
        message.set_user_data(user_id, list(roles), full_name=full_name, email_address=f"{user_id}@school.example")
        message.set_launch_context_claim(context[0], context_title=context[1])
        message.set_resource_link_claim(resource_link)
        message.set_extra_claims(
            {"https://purl.imsglobal.org/spec/lti/claim/launch_presentation": {"locale": "nb-NO"}}
            | ({"given_name": given_name} if given_name else {})
            | ({"family_name": family_name} if family_name else {})
        )
        if custom:
            message.set_custom_parameters_claim(custom)
        if deep_linking_return_url:
            message.set_dl(deep_linking_return_url, accept_types={"ltiResourceLink"})
        if memberships_url:
            message.set_nrps(memberships_url)
        if lineitems_url or lineitem_url:
            message.set_ags(lineitems_url, lineitem_url)
        form = message.lti_launch()
        data = {"id_token": form["id_token"], "state": form["state"]}
        if sign is not None:
            data = sign(self, message, data)
        return browser.post(urlsplit(form["launch_url"]).path, data=data)

    def content_items(self, jwt: str) -> list[dict]:
        """The content items of the tool's deep-linking response, checked against the tool's key set."""
        return self.config.validate_deeplinking_resp({"JWT": jwt})
