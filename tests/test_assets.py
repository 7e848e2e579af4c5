"""Bytes and caches: compressed pages and fragments, static files under content-hashed names, personal pages
kept out of caches, card drawings made once, and an app that starts without importing sympy or alembic."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys

import brotli
import pytest
from flask import Response, send_file
from markupsafe import Markup

from tests.test_security import responses_of_every_kind
from tutor import ROOT
from tutor.deck import kids2
from tutor.web import assets

GZIP = {"Accept-Encoding": "gzip"}
HTMX = {"HX-Request": "true"}


def vary(response) -> set[str]:
    return {value.strip() for value in response.headers.get("Vary", "").split(",") if value.strip()}


def unpacked(response) -> str:
    body = response.get_data()
    assert response.headers["Content-Length"] == str(len(body))
    return {"gzip": gzip.decompress, "br": brotli.decompress}.get(response.headers.get("Content-Encoding"), bytes)(
        body
    ).decode()


def static_links(page: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page)


@pytest.fixture
def lesson(guest):
    guest.sign_in()
    return f"/runs/{guest.start()}"


@pytest.mark.parametrize("accept", ["gzip", "gzip, deflate, br", "*"])
def test_a_page_and_a_fragment_are_gzipped_when_the_browser_accepts_it(client, lesson, accept):
    for headers in ({}, HTMX):
        response = client.get(lesson, headers={"Accept-Encoding": accept, **headers})
        assert response.headers["Content-Encoding"] == "gzip"
        assert len(response.get_data()) < len(unpacked(response)) / 3
        assert "Accept-Encoding" in vary(response)
        assert unpacked(response).lstrip().startswith("<section" if headers else "<!doctype html>")


@pytest.mark.parametrize("accept", [None, "identity", "gzip;q=0, *", "deflate"])
def test_nothing_is_compressed_for_a_browser_that_does_not_ask(client, lesson, accept):
    headers = {"Accept-Encoding": accept} if accept else {}
    for response in (client.get(lesson, headers=headers), client.get(lesson, headers={**headers, **HTMX})):
        assert "Content-Encoding" not in response.headers
        assert "Accept-Encoding" in vary(response), "a cache must not hand this copy to a browser that accepts gzip"
        assert "<section" in unpacked(response)


def test_small_bodies_are_sent_as_they_are(client):
    response = client.get("/progress", headers=GZIP)  # a redirect to the home page, a few hundred bytes
    assert response.status_code == 302 and len(response.get_data()) < assets.MIN_COMPRESS_BYTES
    assert "Content-Encoding" not in response.headers


def test_streamed_and_file_responses_pass_through_untouched(app, client, tmp_path):
    report = tmp_path / "report.csv"
    report.write_text("pupil;level\n" * 200)
    app.add_url_rule("/test/file", "file", lambda: send_file(report, mimetype="text/csv"))
    app.add_url_rule(
        "/test/stream", "stream", lambda: Response((f"line {n}\n" for n in range(500)), mimetype="text/plain")
    )
    file = client.get("/test/file", headers=GZIP)
    assert (
        file.status_code == 200
        and "Content-Encoding" not in file.headers
        and file.get_data(as_text=True) == report.read_text()
    )
    file.close()
    stream = client.get("/test/stream", headers=GZIP)
    assert stream.is_streamed and "Content-Encoding" not in stream.headers
    assert stream.get_data(as_text=True).count("line") == 500


def test_pages_link_static_files_under_content_hashed_names_kept_for_a_year(client, lesson):
    links = static_links(client.get(lesson).get_data(as_text=True))
    assert {re.sub(r"\.[0-9a-f]{12}\.", ".", link) for link in links} == {
        "/static/app.css",
        "/static/favicon.svg",
        "/static/vendor/htmx.min.js",
        "/static/app.js",
    }
    for link in links:
        for accept, encoding in (("br, gzip", "br"), ("gzip", "gzip"), ("", None)):
            response = client.get(link, headers={"Accept-Encoding": accept})
            assert response.status_code == 200
            assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            assert response.headers.get("Content-Encoding") == encoding, (link, accept)
            assert "Accept-Encoding" in vary(response)
            original = (
                ROOT / "tutor" / link.replace(re.search(r"\.[0-9a-f]{12}", link).group(0), "").lstrip("/")
            ).read_text()
            served = unpacked(response)
            assert served == (assets.minify_css(original) if link.endswith(".css") else original)


def test_the_stylesheet_is_served_without_comments_and_runs_of_spaces():
    css = (
        '/* why */\n.a  {\n  font-family: "Noto  Sans", sans-serif; }\n/* how */ .b::after { content: "/* not a '
        'comment */"; }\n'
    )
    assert (
        assets.minify_css(css)
        == '.a { font-family: "Noto  Sans", sans-serif; } .b::after { content: "/* not a comment */"; }'
    )


def test_a_changed_file_gets_a_new_name_and_old_names_keep_working_briefly(app, client, tmp_path):
    (tmp_path / "app.js").write_text("console.log(1);\n")
    app.extensions["static_files"] = files = assets.StaticFiles(str(tmp_path))
    old = files.hashed_name("app.js")
    assert re.fullmatch(r"app\.[0-9a-f]{12}\.js", old)
    (tmp_path / "app.js").write_text("console.log(22);\n")
    new = files.hashed_name("app.js")
    assert new != old and re.fullmatch(r"app\.[0-9a-f]{12}\.js", new)
    assert client.get(f"/static/{new}").headers["Cache-Control"] == "public, max-age=31536000, immutable"
    for name in (old, "app.js"):  # a page from before the change, and the plain name
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.get_data(as_text=True) == "console.log(22);\n"
        assert response.headers["Cache-Control"] == "public, max-age=300"
    again = client.get("/static/app.js", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    assert client.get("/static/nothing.0123456789ab.js").status_code == 404
    assert client.get("/static/../app.py").status_code == 404


def test_every_page_is_kept_out_of_caches_and_fragments_vary_by_htmx_headers(app, staff, guest, client):
    responses = responses_of_every_kind(app, staff, guest, client)
    for kind, response in responses.items():
        expected = "public, max-age=300" if kind == "static file" else "no-store"
        assert response.headers.get("Cache-Control") == expected, kind
    for kind in ("htmx fragment", "htmx 409 fragment"):
        assert {"HX-Request", "HX-Boosted", "HX-History-Restore-Request"} <= vary(responses[kind]), kind


def test_a_url_that_answers_a_page_or_a_fragment_says_it_varies_by_htmx(client, lesson):
    for headers in ({}, HTMX, {**HTMX, "HX-Boosted": "true"}):
        assert "HX-Request" in vary(client.get(lesson, headers=headers))
    assert "HX-Request" not in vary(client.get("/"))


def test_each_card_is_drawn_once_and_every_drawing_is_kept(app, client, lesson):
    page = client.get(lesson).get_data(as_text=True)
    drawings = app.extensions["card_drawings"]
    assert drawings and all(str(drawing) in page for drawing in drawings.values())
    for key in drawings:
        drawings[key] = Markup(f'<svg class="kept-{key[0].id if key[0] else "back"}"></svg>')
    again = client.get(lesson).get_data(as_text=True)
    assert again.count('<svg class="kept-') == page.count('<svg class="card')


def test_a_drawing_depends_on_the_card_and_the_highlight(app):
    deck = kids2()
    colours = {c.id: c for c in deck.colours}
    with app.test_request_context():
        drawings = [
            assets.card_drawing(deck[0], colours),
            assets.card_drawing(deck[0], colours, "hand"),
            assets.card_drawing(deck[1], colours),
            assets.card_drawing(None, colours),
        ]
        assert len(set(drawings)) == 4
        assert "card-focus-hand" in drawings[1] and str(deck[0].top) in drawings[0]
        assert drawings == [
            assets.card_drawing(deck[0], colours),
            assets.card_drawing(deck[0], colours, "hand"),
            assets.card_drawing(deck[1], colours),
            assets.card_drawing(None, colours),
        ]


def test_starting_the_app_imports_neither_sympy_nor_alembic(tmp_path):
    script = (
        "import sys, tutor.app\n"
        f"tutor.app.create_app({{'DATABASE_URL': 'sqlite:///{tmp_path}/app.db', 'SECRET_KEY': 'x'}})\n"
        "print(sorted(m for m in ('sympy', 'alembic') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize(
    "alias",
    [
        "/static/x1/../vendor/htmx.min.js",
        "/static/vendor/./htmx.min.js",
        "/static/./app.css",
        "/static/vendor//htmx.min.js",
        "/static/vendor%2F..%2Fapp.css",
        "/static/%00",
        "/static/app.css%00",
        "/static/%5C..%5Capp.css",
        "/static/vendor/%01htmx.min.js",
    ],
)
def test_a_static_file_is_found_only_under_its_own_name_and_no_path_is_a_server_error(client, alias):
    assert client.get(alias).status_code == 404


def test_aliases_neither_grow_the_cache_nor_compress_a_file_again(app, client, monkeypatch):
    import brotli

    calls = []
    real = brotli.compress
    monkeypatch.setattr(brotli, "compress", lambda body, **kw: calls.append(len(body)) or real(body, **kw))
    app.extensions["static_files"] = files = assets.StaticFiles(app.static_folder)
    headers = {"Accept-Encoding": "br"}
    assert client.get("/static/vendor/htmx.min.js", headers=headers).headers["Content-Encoding"] == "br"
    for n in range(20):
        assert client.get(f"/static/x{n}/../vendor/htmx.min.js", headers=headers).status_code == 404
        assert client.get("/static/vendor/htmx.min.js", headers=headers).status_code == 200
    assert len(calls) == 1  # htmx was compressed once (the 404 pages' own files are not asked for with br)
    assert all(assets.is_normalised(name) for name in files._assets) and len(files._assets) <= 5
