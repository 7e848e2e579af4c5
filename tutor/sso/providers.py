"""The identity providers a school may switch on, each by its own settings (README, "Configuration").

A provider is on when its client id and secret (and for Microsoft Entra ID the tenant) are set.
Its OpenID Connect metadata says where to send the browser, where to fetch tokens and which keys
sign its id_tokens; the metadata and Feide's groups API may be pointed elsewhere by setting, so
that a test serves them from an identity provider on this machine.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Provider:
    """One identity provider as configured: what Authlib registers and what the sign-in page shows."""

    id: str  # "feide", "google" or "entra": in URLs and the link rows
    label: str  # the provider's own name, never translated
    client_id: str
    client_secret: str
    metadata_url: str
    scope: str
    groups_url: str = ""  # Feide's groups API: the teaching groups and the class a person belongs to
    hosted_domain: str = ""  # Google: only accounts of the school's Workspace domain


FEIDE_METADATA = "https://auth.dataporten.no/.well-known/openid-configuration"
FEIDE_GROUPS = "https://groups-api.dataporten.no/groups/me/groups"
GOOGLE_METADATA = "https://accounts.google.com/.well-known/openid-configuration"
ENTRA_METADATA = "https://login.microsoftonline.com/{tenant}/v2.0/.well-known/openid-configuration"
#: The order of the buttons on the sign-in pages.
ORDER = ("feide", "google", "entra")


def configured(config) -> dict[str, Provider]:
    """The providers whose settings are all given, by id, in :data:`ORDER`."""
    found = {}
    if config.get("FEIDE_CLIENT_ID") and config.get("FEIDE_CLIENT_SECRET"):
        found["feide"] = Provider(
            id="feide",
            label="Feide",
            client_id=config["FEIDE_CLIENT_ID"],
            client_secret=config["FEIDE_CLIENT_SECRET"],
            metadata_url=config.get("FEIDE_METADATA_URL") or FEIDE_METADATA,
            # groups-edu: the teaching groups (fc:gogroup) and the school (fc:org) from the school's records
            scope="openid profile groups-edu",
            groups_url=config.get("FEIDE_GROUPS_URL") or FEIDE_GROUPS,
        )
    if config.get("GOOGLE_CLIENT_ID") and config.get("GOOGLE_CLIENT_SECRET"):
        found["google"] = Provider(
            id="google",
            label="Google",
            client_id=config["GOOGLE_CLIENT_ID"],
            client_secret=config["GOOGLE_CLIENT_SECRET"],
            metadata_url=config.get("GOOGLE_METADATA_URL") or GOOGLE_METADATA,
            scope="openid profile",
            hosted_domain=config.get("GOOGLE_HOSTED_DOMAIN") or "",
        )
    if config.get("ENTRA_CLIENT_ID") and config.get("ENTRA_CLIENT_SECRET") and config.get("ENTRA_TENANT"):
        found["entra"] = Provider(
            id="entra",
            label="Microsoft",
            client_id=config["ENTRA_CLIENT_ID"],
            client_secret=config["ENTRA_CLIENT_SECRET"],
            # the school's own tenant: its issuer is the only one accepted, so no other organisation's accounts
            metadata_url=config.get("ENTRA_METADATA_URL") or ENTRA_METADATA.format(tenant=config["ENTRA_TENANT"]),
            scope="openid profile",
        )
    return found
