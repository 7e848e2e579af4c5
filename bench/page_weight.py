"""Bytes on the wire of a lesson page's first load: the HTML and every file it references, nothing cached.

Signs in a guest with the Flask test client, starts a lesson, then fetches the lesson page and
each stylesheet, script, icon and picture it names, all with ``Accept-Encoding`` as a browser
sends it over HTTPS (over plain HTTP browsers leave out ``br``). Counts body and header bytes
as the server sends them (after compression).

    .venv/bin/python bench/page_weight.py [--game calculation-war] [--accept-encoding "gzip, deflate"] [--json]
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tutor import db  # noqa: E402
from tutor.app import create_app  # noqa: E402

HTTPS_BROWSER = "gzip, deflate, br"
# What a first load fetches besides the page: stylesheets, icons, scripts and images.
REFERENCES = re.compile(r'<(?:link[^>]*\bhref|script[^>]*\bsrc|img[^>]*\bsrc)="(/[^"]+)"')


def wire_size(response) -> tuple[int, int]:
    """Body and header bytes of one response as sent (status line and headers in HTTP/1.1 form)."""
    head = f"HTTP/1.1 {response.status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in response.headers.items()) + "\r\n"
    return len(response.get_data()), len(head.encode("latin-1"))


def page_text(response) -> str:
    body = response.get_data()
    return (gzip.decompress(body) if response.headers.get("Content-Encoding") == "gzip" else body).decode("utf-8")


def measure(game: str, accept_encoding: str = HTTPS_BROWSER) -> dict:
    workdir = tempfile.mkdtemp(prefix="kortmatte-weight-")
    url = f"sqlite:///{workdir}/weight.db"
    db.upgrade(url)
    app = create_app({"TESTING": False, "DATABASE_URL": url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False})
    client = app.test_client()
    browser = {"Accept-Encoding": accept_encoding, "Accept": "text/html,*/*"}
    client.post("/guest", data={"name": "Bench"})
    location = client.post(f"/lessons/{game}/start", data={"players": "2", "strength": "beginner"}).headers["Location"]
    page = client.get(location, headers=browser)
    assert page.status_code == 200, page.status
    files = [
        {
            "url": location,
            **dict(zip(("body", "headers"), wire_size(page))),
            "encoding": page.headers.get("Content-Encoding", ""),
        }
    ]
    for reference in dict.fromkeys(REFERENCES.findall(page_text(page))):
        response = client.get(reference, headers=browser)
        assert response.status_code == 200, (reference, response.status)
        body, head = wire_size(response)
        files.append(
            {"url": reference, "body": body, "headers": head, "encoding": response.headers.get("Content-Encoding", "")}
        )
        response.close()
    app.extensions["db_engine"].dispose()
    body = sum(f["body"] for f in files)
    headers = sum(f["headers"] for f in files)
    return {
        "game": game,
        "accept_encoding": accept_encoding,
        "files": files,
        "body_bytes": body,
        "header_bytes": headers,
        "total_bytes": body + headers,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="calculation-war")
    parser.add_argument("--accept-encoding", default=HTTPS_BROWSER, help="what the browser accepts")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    result = measure(args.game, args.accept_encoding)
    if args.json:
        print(json.dumps(result))
        return
    for f in result["files"]:
        print(f"{f['body']:>8} B body {f['headers']:>5} B headers  {f['encoding'] or '-':<5} {f['url']}")
    print(
        f"first load of a {result['game']} lesson page (Accept-Encoding: {result['accept_encoding']}): "
        f"{result['total_bytes']} B on the wire "
        f"({result['total_bytes'] / 1024:.1f} KiB; bodies {result['body_bytes']} B, headers {result['header_bytes']} B)"
    )


if __name__ == "__main__":
    main()
