"""A teacher signs in with Feide in a real Chromium: the button on the sign-in page, the identity provider on this
machine (Authlib's own server) signs them in, and they land on their classes, made from their teaching groups."""

from __future__ import annotations

import pytest

from tests.browser_support import Visit, serving
from tests.identity_provider import serving_provider

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def idp():
    with serving_provider() as provider:
        yield provider


@pytest.fixture(scope="module")
def feide_server(tmp_path_factory, idp):
    with serving(tmp_path_factory, **idp.settings("FEIDE")) as base:
        yield base


def test_a_teacher_signs_in_with_feide_and_lands_on_their_classes(browser, feide_server, idp):
    visit = Visit(browser, feide_server)
    page = visit.page
    page.goto(feide_server + "/teacher/sign-in")
    visit.axe("the teacher sign-in page with a Feide button")
    with page.expect_navigation(url=f"{feide_server}/teacher"):
        page.get_by_role("button", name="Sign in with Feide").click()
    page.wait_for_load_state("networkidle")
    assert page.locator("h1").text_content() == "My classes"
    assert page.get_by_role("link", name="6A matematikk").count() == 1
    visit.axe("the teacher's classes after signing in with Feide")
    assert idp.groups_asked >= 1
    # the provider's own pages are the only other host the browser went to
    assert [p for p in visit.problems if not p.startswith(f"request to another host: {idp.base_url}/")] == []
    visit.close()
