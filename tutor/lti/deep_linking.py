"""Deep linking: a teacher inside the platform picks a lesson, and the platform gets a signed link to it back.

A deep-linking request names where to send the answer (``deep_link_return_url``) and an opaque
``data`` value to echo. Between the request and the teacher's choice only those, the platform's
row and its deployment id are kept (in the signed session cookie: nothing personal). The answer
is one ``ltiResourceLink`` content item whose custom parameters name the Kortmatte homework and
its lesson; when the platform offers grades, it carries a line item, so that the platform makes a
gradebook column the homework's scores go to.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from pylti1p3.deep_link import DeepLink
from pylti1p3.deep_link_resource import DeepLinkResource
from pylti1p3.lineitem import LineItem
from pylti1p3.registration import Registration

from tutor.models import Assignment

SETTINGS = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
GRADES = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
LINE_ITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
#: The custom parameters of a link Kortmatte made: the platform sends them back with each launch of the link.
CUSTOM_ASSIGNMENT = "kortmatte_assignment"
CUSTOM_LESSON = "kortmatte_lesson"
#: A line item's maximum: the score is the share of the homework's goal done, in per cent.
SCORE_MAXIMUM = 100


@dataclass(frozen=True)
class Request:
    """What is kept of a deep-linking request until the teacher has chosen (no names, nothing personal)."""

    platform_id: int
    deployment_id: str
    return_url: str
    data: str | None
    grades: bool  # the platform lets the tool make line items

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, kept: dict) -> Request:
        return cls(**{name: kept[name] for name in cls.__dataclass_fields__})


def request_of(claims: dict, platform_id: int, deployment_id: str) -> Request:
    """The deep-linking request in a checked launch's claims."""
    settings = claims.get(SETTINGS) or {}
    grades = LINE_ITEM_SCOPE in ((claims.get(GRADES) or {}).get("scope") or [])
    data = settings.get("data")
    return Request(platform_id, deployment_id, str(settings["deep_link_return_url"]), data, grades)


def answer(registration: Registration, request: Request, assignment: Assignment, title: str, launch_url: str) -> str:
    """The signed LtiDeepLinkingResponse (a JWT) that puts a link to ``assignment`` in the platform's course."""
    resource = (
        DeepLinkResource()
        .set_url(launch_url)
        .set_title(title)
        .set_custom_params({CUSTOM_ASSIGNMENT: assignment.public_id, CUSTOM_LESSON: assignment.game_id})
    )
    if request.grades:
        resource.set_lineitem(
            LineItem().set_score_maximum(SCORE_MAXIMUM).set_label(title).set_resource_id(assignment.public_id)
        )
    settings = {"deep_link_return_url": request.return_url}
    if request.data is not None:
        settings["data"] = request.data
    return DeepLink(registration, request.deployment_id, settings).get_response_jwt([resource])
