"""Signing in with the school's account (OpenID Connect on Authlib): thin, see :mod:`tutor.sso`.

Authlib keeps each sign-in's state, nonce and PKCE verifier in the session cookie and checks
them when the provider sends the browser back, with the id_token's signature, issuer,
audience and expiry. A sign-in that is refused shows one page that says why and has made
nothing. A sign-in that succeeds begins like any other (:func:`tutor.web.auth.start_session`),
so signing out and the idle and lifetime limits work the same. A signed-in teacher may link
their own school account, and link a pupil's (the pupil signs in at the provider beside them).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import requests
from authlib.integrations.base_client.errors import MismatchingStateError, OAuthError
from authlib.integrations.flask_client import OAuth
from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from joserfc.errors import ExpiredTokenError, JoseError

from tutor.sso import entry, providers
from tutor.web import db, security
from tutor.web.auth import current_teacher, safe_next, start_session, teacher_required
from tutor.web.teacher import pupil_or_404

bp = Blueprint("sso", __name__)

#: The session key for what the sign-in under way is for: signing in as a teacher or a pupil, or linking.
PURPOSE = "sso_purpose"
#: How long the provider may take to answer a request of ours (its metadata, keys, token, groups).
TIMEOUT_SECONDS = 10

#: reason -> what the page says; whole sentences for translators
MESSAGES = {
    "provider_error": lazy_gettext(
        "The school account's sign-in did not finish: it was cancelled or the provider refused it. Please try again."
    ),
    "bad_state": lazy_gettext(
        "This sign-in did not start in this browser, or it was used already. Please start the sign-in again."
    ),
    "bad_token": lazy_gettext(
        "The answer from the school account's provider could not be checked, so nobody was signed in. "
        "Please try again, or ask your school's IT person."
    ),
    "expired": lazy_gettext("The school account's sign-in took too long and has expired. Please sign in again."),
    "unreachable": lazy_gettext(
        "The school account's provider could not be reached just now. Please try again in a few minutes."
    ),
    "wrong_domain": lazy_gettext(
        "This account does not belong to the school. Please sign in with your school account."
    ),
    "no_teacher_account": lazy_gettext(
        "This school account has no teacher account here yet. Sign in with your e-mail address and password and "
        "link your school account, or ask your school's IT contact."
    ),
    "no_pupil_account": lazy_gettext(
        "This school account is not in a class here yet. Please sign in with your class code and ask your teacher."
    ),
    "switched_off": lazy_gettext("This account is switched off. Please ask the school's administrator."),
    "linked_elsewhere": lazy_gettext(
        "This school account already signs in somebody else here, so it was not linked again."
    ),
    "class_full": lazy_gettext("This class has as many pupils as a class can have. Please tell your teacher."),
}


def init_app(app) -> None:
    """Register the providers the settings switch on with an Authlib client of this app's own."""
    configured = providers.configured(app.config)
    oauth = OAuth(app)
    for provider in configured.values():
        oauth.register(
            provider.id,
            client_id=provider.client_id,
            client_secret=provider.client_secret,
            server_metadata_url=provider.metadata_url,
            client_kwargs={"scope": provider.scope, "code_challenge_method": "S256", "timeout": TIMEOUT_SECONDS},
        )
    app.extensions["sso_providers"] = configured
    app.extensions["sso_oauth"] = oauth
    # A sign-in button's form is answered by a redirect to the provider, which the browser checks against the
    # policy's form-action: the providers' sign-in pages are on the hosts of their metadata.
    origins = sorted(
        {f"{urlsplit(p.metadata_url).scheme}://{urlsplit(p.metadata_url).netloc}" for p in configured.values()}
    )
    app.extensions["sso_policy"] = security.with_form_action(" ".join(origins)) if origins else None


@bp.after_app_request
def let_forms_reach_the_providers(response):
    policy = current_app.extensions["sso_policy"]
    if policy:
        response.headers.setdefault("Content-Security-Policy", policy)
    return response


@bp.app_context_processor
def inject_providers():
    return {"sso_providers": list(current_app.extensions["sso_providers"].values())}


def provider_or_404(provider_id: str) -> providers.Provider:
    provider = current_app.extensions["sso_providers"].get(provider_id)
    if provider is None:
        abort(404)
    return provider


def refused_page(reason: str):
    status = entry.REASONS[reason]
    return render_template("sign_in_refused.html", message=MESSAGES[reason], status=status), status


def send_to_provider(provider: providers.Provider, purpose: dict, **params):
    """Begin a sign-in at ``provider`` (Authlib saves its state, nonce and PKCE verifier in the session)."""
    session[PURPOSE] = purpose | {"provider": provider.id}
    if provider.hosted_domain:
        params["hd"] = provider.hosted_domain
    client = current_app.extensions["sso_oauth"].create_client(provider.id)
    try:
        return client.authorize_redirect(url_for("sso.done", provider_id=provider.id, _external=True), **params)
    except (requests.RequestException, ValueError, RuntimeError):
        return refused_page("unreachable")


@bp.post("/sign-in/<provider_id>")
def start(provider_id):
    """A teacher (``as=teacher``) or pupil (``as=pupil``) signs in with the school's account."""
    provider = provider_or_404(provider_id)
    role = "teacher" if request.form.get("as") == "teacher" else "pupil"
    next_page = safe_next(request.form.get("next"), url_for("teacher.home")) if role == "teacher" else None
    return send_to_provider(provider, {"as": role, "next": next_page})


@bp.post("/teacher/school-account/<provider_id>")
@teacher_required
def link_own(provider_id):
    """The signed-in teacher links their school account: next time it signs them in."""
    provider = provider_or_404(provider_id)
    return send_to_provider(provider, {"as": "link-teacher", "teacher": current_teacher().public_id})


@bp.post("/teacher/pupils/<pupil_id>/school-account/<provider_id>")
@teacher_required
def link_pupil(pupil_id, provider_id):
    """The teacher links a pupil's school account: the pupil signs in at the provider (asked afresh) beside them."""
    pupil = pupil_or_404(pupil_id)  # another teacher's pupil is not found, whichever provider is named
    provider = provider_or_404(provider_id)
    purpose = {"as": "link-pupil", "teacher": current_teacher().public_id, "pupil": pupil.public_id}
    return send_to_provider(provider, purpose, prompt="login")


def checked_sign_in(provider: providers.Provider) -> tuple[entry.Identity, list[entry.Group]]:
    """The provider's answer checked by Authlib, and for Feide the person's groups; :class:`entry.Refused` if not."""
    client = current_app.extensions["sso_oauth"].create_client(provider.id)
    try:
        token = client.authorize_access_token()
    except MismatchingStateError as error:
        raise entry.Refused("bad_state") from error
    except OAuthError as error:
        raise entry.Refused("provider_error") from error
    except ExpiredTokenError as error:
        raise entry.Refused("expired") from error
    except JoseError as error:
        raise entry.Refused("bad_token") from error
    except (requests.RequestException, ValueError, RuntimeError) as error:
        raise entry.Refused("unreachable") from error
    claims = token.get("userinfo")
    if not claims:  # no id_token: not an OpenID Connect answer
        raise entry.Refused("bad_token")
    if provider.hosted_domain and claims.get("hd") != provider.hosted_domain:
        raise entry.Refused("wrong_domain")
    identity = entry.Identity.from_claims(provider.id, claims)
    if not provider.groups_url:
        return identity, []
    try:
        answer = client.get(provider.groups_url, token=token)
        answer.raise_for_status()
        groups = answer.json()
    except (requests.RequestException, ValueError) as error:
        raise entry.Refused("unreachable") from error
    return identity, groups


@bp.get("/sign-in/<provider_id>/done")
def done(provider_id):
    """The provider sends the browser back here: check its answer, then sign in or link."""
    provider = provider_or_404(provider_id)
    purpose = session.pop(PURPOSE, None) or {}
    if purpose.get("provider") != provider.id:
        purpose = {}  # the answer of a sign-in begun for another provider, or none: the state check refuses it
    database = db.session()
    fallbacks = entry.Fallbacks(teacher_name=_("Teacher"), class_name=_("Class"), pupil_name=_("Pupil"))
    try:
        identity, raw_groups = checked_sign_in(provider)
        if not purpose:
            raise entry.Refused("bad_state")
        groups = entry.teaching_groups(raw_groups)
        role = purpose.get("as")
        if role in ("link-teacher", "link-pupil"):
            return linked(database, identity, purpose)
        if role == "teacher":
            may_create = current_app.config["ALLOW_SIGNUP"] or entry.works_at_school(raw_groups)
            locale = session.get("locale") or "en"
            teacher = entry.enter_as_teacher(database, identity, groups, may_create, fallbacks, locale)
            start_session(teacher=teacher, locale=teacher.locale)
            flash(_("Welcome, %(name)s.", name=teacher.name), "success")
            return redirect(purpose.get("next") or url_for("teacher.home"))
        pupil = entry.enter_as_pupil(database, identity, groups, fallbacks)
    except entry.Refused as refusal:
        database.rollback()
        return refused_page(refusal.reason)
    start_session(pupil=pupil, locale=pupil.locale)
    flash(_("Hello, %(name)s!", name=pupil.name), "success")
    return redirect(url_for("main.index"))


def linked(database, identity: entry.Identity, purpose: dict):
    """Link the school account to the teacher who asked, or to their pupil; only while that teacher is signed in."""
    teacher = current_teacher()
    if teacher is None or teacher.public_id != purpose.get("teacher"):
        raise entry.Refused("bad_state")
    if purpose["as"] == "link-teacher":
        entry.link(database, identity, teacher=teacher)
        database.commit()
        flash(_("Your school account is linked: you may sign in with it from now on."), "success")
        return redirect(url_for("teacher.home"))
    pupil = pupil_or_404(purpose.get("pupil", ""))
    entry.link(database, identity, pupil=pupil)
    database.commit()
    flash(_("%(name)s may sign in with their school account from now on.", name=pupil.name), "success")
    return redirect(url_for("dashboards.pupil", pupil_id=pupil.public_id))
