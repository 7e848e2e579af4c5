"""Kortmatte: traditional card games as guided maths lessons.

The web application is built by :func:`tutor.app.create_app`; everything else in
this package (engine, drills, answers, skills, lessons) is plain Python.
"""

from pathlib import Path

#: The project root, where templates/, content/ and translations/ live.
ROOT = Path(__file__).resolve().parent.parent
