"""LTI 1.3: learning platforms (itslearning, Canvas, Moodle) launch Kortmatte and sign their people in.

:mod:`~tutor.lti.platforms` registers platforms and the tool's keys, :mod:`~tutor.lti.tool_config` hands them to
pylti1p3, :mod:`~tutor.lti.nonces` keeps the launches' nonces in the database, :mod:`~tutor.lti.launch` checks a
launch and names why one is refused, and :mod:`~tutor.lti.roster` makes or finds the teacher, class and pupil it
stands for. No Flask here: the web layer (:mod:`tutor.web.lti`) passes pylti1p3's Flask adapters in.
"""
