"""Single sign-on with the school's account: Feide, Google Workspace for Education and Microsoft Entra ID.

:mod:`~tutor.sso.providers` says which providers the settings switch on, and :mod:`~tutor.sso.entry` finds or makes
the teacher or pupil a checked sign-in stands for. Authlib checks the sign-in itself (state, nonce, PKCE, the
id_token's signature, issuer, audience and expiry) in the web layer (:mod:`tutor.web.sso`); nothing here imports
Flask.
"""
