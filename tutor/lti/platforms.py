"""Registering learning platforms and the tool's key pairs: what ``kortmatte lti`` does.

Each platform has the tool's own RSA key pairs: the newest signs the tool's messages to it, and
a rotation keeps the older public keys in the published key set until they are removed, so
messages signed just before the rotation still check.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from jwcrypto.jwk import JWK
from pylti1p3.registration import Registration
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor.models import LtiPlatform, LtiToolKey

RSA_BITS = 2048
#: Hosts a platform may be reached on without HTTPS: a platform on the developer's own machine.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


class Refused(ValueError):
    """A registration the command cannot make; the message says why (for the IT person at the terminal)."""


@dataclass(frozen=True)
class PlatformFacts:
    """A platform as ``kortmatte lti list`` shows it."""

    issuer: str
    client_id: str
    deployment_ids: list[str]
    login_url: str
    token_url: str
    keyset_url: str
    key_ids: list[str]  # newest (the signing key) last

    def to_dict(self) -> dict:
        return self.__dict__ | {"deployment_ids": list(self.deployment_ids), "key_ids": list(self.key_ids)}


def checked_url(url: str, what: str) -> str:
    """An https URL (http only on this machine), or Refused: launches and keys must not travel in the clear."""
    parts = urlsplit(str(url or "").strip())
    if parts.scheme == "https" and parts.hostname or parts.scheme == "http" and parts.hostname in LOCAL_HOSTS:
        return parts.geturl()
    raise Refused(f"the {what} must be an https:// address (http:// only for localhost): {url!r}")


def new_key(platform: LtiPlatform) -> LtiToolKey:
    """A new RSA key pair for ``platform``, its key id the public key's RFC 7638 thumbprint."""
    pair = JWK.generate(kty="RSA", size=RSA_BITS)
    public_pem = pair.export_to_pem().decode()
    key = LtiToolKey(
        kid=Registration.get_jwk(public_pem)["kid"],
        private_pem=pair.export_to_pem(private_key=True, password=None).decode(),
        public_pem=public_pem,
    )
    platform.keys.append(key)
    return key


def platform_by(db: Session, issuer: str, client_id: str | None = None) -> LtiPlatform:
    """The one platform with this issuer (and client id, needed when the issuer has several), or Refused."""
    query = select(LtiPlatform).where(LtiPlatform.issuer == issuer)
    if client_id:
        query = query.where(LtiPlatform.client_id == client_id)
    found = db.scalars(query).all()
    if not found:
        raise Refused(f"no platform with issuer {issuer!r}" + (f" and client id {client_id!r}" if client_id else ""))
    if len(found) > 1:
        raise Refused(f"the issuer {issuer!r} has several client ids: give --client-id")
    return found[0]


def add_platform(
    db: Session,
    issuer: str,
    client_id: str,
    deployment_ids: list[str],
    login_url: str,
    token_url: str,
    keyset_url: str,
) -> LtiPlatform:
    """Register a platform with a first key pair of the tool's."""
    issuer, client_id = str(issuer or "").strip(), str(client_id or "").strip()
    deployments = sorted({str(d).strip() for d in deployment_ids if str(d).strip()})
    if not issuer or not client_id or not deployments:
        raise Refused("the issuer, the client id and at least one deployment id are needed")
    existing = db.scalar(select(LtiPlatform).where(LtiPlatform.issuer == issuer, LtiPlatform.client_id == client_id))
    if existing is not None:
        raise Refused(f"the platform {issuer!r} with client id {client_id!r} is registered already")
    platform = LtiPlatform(
        issuer=issuer,
        client_id=client_id,
        deployment_ids=deployments,
        login_url=checked_url(login_url, "login URL"),
        token_url=checked_url(token_url, "token URL"),
        keyset_url=checked_url(keyset_url, "key set URL"),
    )
    db.add(platform)
    new_key(platform)
    db.flush()
    return platform


def list_platforms(db: Session) -> list[PlatformFacts]:
    platforms = db.scalars(select(LtiPlatform).order_by(LtiPlatform.issuer, LtiPlatform.client_id)).all()
    return [
        PlatformFacts(
            p.issuer,
            p.client_id,
            list(p.deployment_ids),
            p.login_url,
            p.token_url,
            p.keyset_url,
            [k.kid for k in p.keys],
        )
        for p in platforms
    ]


def remove_platform(db: Session, issuer: str, client_id: str | None = None) -> None:
    """Unregister a platform: its keys and its links to teachers, classes and pupils go; the people and their work
    stay (a teacher or pupil from it can no longer sign in through it)."""
    db.delete(platform_by(db, issuer, client_id))
    db.flush()


def rotate_key(db: Session, issuer: str, client_id: str | None = None) -> LtiToolKey:
    """A new signing key for the platform; the older ones stay published until :func:`remove_old_keys`."""
    platform = platform_by(db, issuer, client_id)
    key = new_key(platform)
    db.flush()
    return key


def remove_old_keys(db: Session, issuer: str, client_id: str | None = None) -> list[str]:
    """Stop publishing every key of the platform but the newest (once the platform has fetched the new key set)."""
    platform = platform_by(db, issuer, client_id)
    retired = platform.keys[:-1]
    for key in retired:
        platform.keys.remove(key)
    db.flush()
    return [key.kid for key in retired]


def key_set(db: Session) -> dict:
    """The tool's public keys for every platform, as a JSON Web Key Set."""
    keys = db.scalars(select(LtiToolKey).order_by(LtiToolKey.id)).all()
    return {"keys": [Registration.get_jwk(key.public_pem) for key in keys]}
