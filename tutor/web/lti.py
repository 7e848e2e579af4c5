"""LTI 1.3 routes: the tool's key set, the platform's login initiation and the launch (thin: see :mod:`tutor.lti`).

A launch signs the instructor in as a teacher of the course's class, or the learner in as a
pupil of it. Kortmatte's pages refuse to be framed, so a platform opens it in a new window; a
login that arrives inside a frame gets one small page with a button that opens the launch in
its own window (a frame may show that page, and no other).
"""

from __future__ import annotations

from urllib.parse import urlsplit

import requests
from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext
from pylti1p3.contrib.flask import FlaskCookieService, FlaskOIDCLogin, FlaskRequest
from pylti1p3.exception import LtiException, OIDCException

from tutor import classroom, content
from tutor.lti import deep_linking, grades, names_roles, platforms, roster
from tutor.lti.launch import DEEP_LINKING_REQUEST, MESSAGE_TYPE, CheckedLaunch, Refused
from tutor.lti.nonces import NonceService
from tutor.lti.tool_config import DatabaseToolConf
from tutor.models import LtiPlatform, SchoolClass, utcnow
from tutor.text import say
from tutor.web import db, security
from tutor.web.auth import current_pupil, current_teacher, start_session, teacher_required
from tutor.web.lessons import open_homework
from tutor.web.teacher import (
    assignment_form,
    homework_form_context,
    new_homework_values,
    refusal_message,
    sent_values,
)

bp = Blueprint("lti", __name__, url_prefix="/lti")
security.csrf.exempt(bp)  # the platform posts the login and the launch; the state and nonce guard them instead
#: The teacher's own pages after a deep-linking launch: CSRF-protected as every other form.
picker = Blueprint("lti_picker", __name__, url_prefix="/lti")

#: The parameters of a login initiation, passed on when it is opened again in its own window.
LOGIN_PARAMS = ("iss", "login_hint", "target_link_uri", "lti_message_hint", "lti_deployment_id", "client_id")
NEW_WINDOW = "lti1p3_new_window"
#: The session key of a deep-linking request waiting for the teacher's choice (see tutor.lti.deep_linking.Request).
DEEP_LINK = "lti_deep_link"

#: reason -> what the page says; whole sentences for translators
MESSAGES = {
    "no_state": lazy_gettext(
        "This launch did not come from the sign-in it started with. Your browser may block cookies for Kortmatte. "
        "Open Kortmatte again from your learning platform."
    ),
    "malformed": lazy_gettext("Your learning platform sent something that is not an LTI 1.3 launch."),
    "replayed": lazy_gettext(
        "This launch was used already or is too old. Open Kortmatte again from your learning platform."
    ),
    "unknown_issuer": lazy_gettext(
        "This learning platform is not registered with Kortmatte. Ask your school's IT person to register it."
    ),
    "wrong_audience": lazy_gettext(
        "This launch was meant for another tool, not this registration of Kortmatte. Ask your school's IT person "
        "to check the client ID."
    ),
    "bad_signature": lazy_gettext(
        "The launch's signature could not be checked against your learning platform's keys, so it was not let in."
    ),
    "expired": lazy_gettext("This launch has expired. Open Kortmatte again from your learning platform."),
    "unknown_deployment": lazy_gettext(
        "This deployment of Kortmatte is not registered. Ask your school's IT person to add its deployment ID."
    ),
    "not_a_resource_launch": lazy_gettext(
        "Kortmatte can only be opened from a link in a course or to choose a lesson for a course."
    ),
    "not_a_teacher": lazy_gettext("Only the course's teachers can choose lessons from Kortmatte."),
    "no_context": lazy_gettext("Kortmatte can only be opened from a course, so that it knows the class."),
    "no_role": lazy_gettext("Kortmatte is only for the course's teachers and pupils."),
    "switched_off": lazy_gettext("This account is switched off. Please ask the school's administrator."),
    "no_class": lazy_gettext(
        "Your teacher has not opened Kortmatte in this course yet. Please try again after they have."
    ),
    "class_full": lazy_gettext("This class has as many pupils as a class can have. Please tell your teacher."),
}


def refused_page(reason: str):
    status = Refused(reason).status
    return render_template("lti/refused.html", message=MESSAGES[reason], status=status), status


def lti_request() -> FlaskRequest:
    return FlaskRequest(request_is_secure=request.is_secure or current_app.config["SECURE_COOKIES"])


@bp.get("/jwks")
def jwks():
    """The tool's public keys, which the platforms check the tool's messages with."""
    return jsonify(platforms.key_set(db.session()))


@bp.route("/login", methods=["GET", "POST"])
def login():
    """OIDC login initiation: send the browser to the platform's sign-in, with a state cookie and a saved nonce."""
    database, lti = db.session(), lti_request()
    tool = DatabaseToolConf(database)
    platform = tool.platform(lti.get_param("iss"), lti.get_param("client_id"))
    if platform is None:
        return refused_page("unknown_issuer")
    if request.headers.get("Sec-Fetch-Dest") == "iframe" and not lti.get_param(NEW_WINDOW):
        params = {key: lti.get_param(key) for key in LOGIN_PARAMS if lti.get_param(key)}
        page = render_template("lti/new_window.html", url=url_for("lti.login", **params, **{NEW_WINDOW: "1"}))
        # Any https site: a platform's course pages need not be on its login URL's site (Canvas's cloud is not), and
        # this page only offers a button that opens the login in its own window.
        parts = urlsplit(platform.login_url)
        return security.framable_by(current_app.make_response(page), f"https: {parts.scheme}://{parts.netloc}")
    cookies = FlaskCookieService(lti)
    oidc = FlaskOIDCLogin(lti, tool, session_service=NonceService(database, utcnow()), cookie_service=cookies)
    try:
        response = oidc.redirect(url_for("lti.launch", _external=True))
    except OIDCException:
        database.rollback()
        return refused_page("malformed")
    database.commit()
    return response


@bp.post("/launch")
def launch():
    """The platform's id_token, checked; then the teacher or pupil it stands for is signed in."""
    database, lti = db.session(), lti_request()
    checked = CheckedLaunch(
        lti,
        DatabaseToolConf(database),
        session_service=NonceService(database, utcnow()),
        cookie_service=FlaskCookieService(lti),
    )
    try:
        claims = checked.claims()
    except Refused as refusal:
        database.commit()  # a nonce that was taken stays taken
        return refused_page(refusal.reason)
    database.commit()
    fallbacks = roster.Fallbacks(teacher_name=_("Teacher"), class_name=_("Class"), pupil_name=_("Pupil"))
    instructor, learner = checked.check_teacher_access(), checked.check_student_access()
    choosing = claims.get(MESSAGE_TYPE) == DEEP_LINKING_REQUEST
    try:
        if choosing and not instructor:
            raise Refused("not_a_teacher")
        entry = roster.enter(database, checked.platform(), claims, instructor, learner, fallbacks)
    except Refused as refusal:
        database.rollback()
        return refused_page(refusal.reason)
    custom = claims.get("https://purl.imsglobal.org/spec/lti/claim/custom") or {}
    if entry.teacher is not None and checked.has_nrps():
        read_class_list(checked, entry.school_class, fallbacks.pupil_name)
    if entry.teacher is not None:
        start_session(teacher=entry.teacher, locale=entry.teacher.locale)
        if choosing:
            request_kept = deep_linking.request_of(claims, checked.platform().id, checked.deployment_id())
            session[DEEP_LINK] = request_kept.to_dict() | {"class_id": entry.school_class.public_id}
            return redirect(url_for("lti_picker.deep_link"))
        flash(_("Welcome, %(name)s.", name=entry.teacher.name), "success")
        assignment = classroom.assignment_for(database, entry.teacher, custom.get(deep_linking.CUSTOM_ASSIGNMENT, ""))
        if assignment is not None and assignment.class_id == entry.school_class.id:
            grades.note_line_item(database, checked.platform(), assignment, claims)
            database.commit()
            return redirect(url_for("dashboards.assignment", assignment_id=assignment.public_id))
        return redirect(url_for("dashboards.class_grid", class_id=entry.school_class.public_id))
    start_session(pupil=entry.pupil, locale=entry.pupil.locale)
    flash(_("Hello, %(name)s!", name=entry.pupil.name), "success")
    assignment = classroom.assignment_of_pupil(database, entry.pupil, custom.get(deep_linking.CUSTOM_ASSIGNMENT, ""))
    if assignment is not None:
        grades.note_line_item(database, checked.platform(), assignment, claims)
        database.commit()
        return open_homework(current_pupil(), assignment)
    return redirect(url_for("main.index"))


def read_class_list(checked: CheckedLaunch, school_class: SchoolClass, fallback: str) -> None:
    """Add the course's learners from the platform's names and roles service; a failure only leaves them out.

    The log names the platform's row and the kind of failure, never a person.
    """
    try:
        members = checked.get_nrps().get_members()
    except (LtiException, requests.RequestException, KeyError, ValueError) as error:
        current_app.logger.warning(
            "LTI names and roles of platform %s could not be read (%s)", checked.platform().id, type(error).__name__
        )
        return
    names_roles.add_learners(db.session(), checked.platform(), school_class, members, fallback)


def waiting_deep_link() -> tuple[deep_linking.Request, SchoolClass]:
    """The signed-in teacher's deep-linking request and its class (404 when there is none, or not theirs)."""
    kept = session.get(DEEP_LINK)
    school_class = classroom.class_for(db.session(), current_teacher(), kept["class_id"]) if kept else None
    if school_class is None:
        abort(404)
    return deep_linking.Request.from_dict(kept), school_class


@picker.route("/deep-link", methods=["GET", "POST"])
@teacher_required
def deep_link():
    """The teacher picks a lesson with its goal and due date; it becomes homework and a link in the course."""
    chosen, school_class = waiting_deep_link()
    here = url_for("lti_picker.deep_link")
    if request.method == "GET":
        values = new_homework_values(school_class, request.args)
        return render_template(
            "teacher/homework_form.html", **homework_form_context(school_class, values), deep_link_url=here
        )
    database = db.session()
    try:
        assignment = classroom.create_assignment(
            database, school_class, current_teacher(), assignment_form(request.form), utcnow()
        )
    except classroom.Refused as error:
        database.rollback()
        flash(refusal_message(error), "error")
        context = homework_form_context(waiting_deep_link()[1], sent_values(request.form))
        return render_template("teacher/homework_form.html", **context, deep_link_url=here), 400
    platform = database.get(LtiPlatform, chosen.platform_id)
    if platform is None:  # unregistered meanwhile: the homework stays, the platform gets nothing
        database.commit()
        session.pop(DEEP_LINK, None)
        return refused_page("unknown_issuer")
    database.commit()
    registration = DatabaseToolConf(database).find_registration_by_params(platform.issuer, platform.client_id)
    title = say(content.load(f"games/{assignment.game_id}")["name"], school_class.locale)
    jwt = deep_linking.answer(registration, chosen, assignment, title, url_for("lti.launch", _external=True))
    session.pop(DEEP_LINK, None)
    page = current_app.make_response(
        render_template("lti/deep_link_return.html", return_url=chosen.return_url, jwt=jwt)
    )
    parts = urlsplit(chosen.return_url)
    policy = page.headers.get("Content-Security-Policy", security.CONTENT_SECURITY_POLICY)
    page.headers["Content-Security-Policy"] = policy.replace(
        "form-action 'self'", f"form-action 'self' {parts.scheme}://{parts.netloc}"
    )
    return page
