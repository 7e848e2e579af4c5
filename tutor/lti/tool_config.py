"""pylti1p3's tool configuration read from the database (the platforms ``kortmatte lti add-platform`` registered)."""

from __future__ import annotations

from pylti1p3.deployment import Deployment
from pylti1p3.registration import Registration
from pylti1p3.tool_config import ToolConfAbstract
from sqlalchemy import select
from sqlalchemy.orm import Session

from tutor.models import LtiPlatform


class DatabaseToolConf(ToolConfAbstract):
    """The registered platforms, looked up by issuer and client id as each login or launch names them.

    One issuer may have several client ids (Canvas's cloud issuer is shared by every school), so
    every lookup goes by both; a login that names no client id finds the issuer's platform only
    when the issuer has exactly one.
    """

    def __init__(self, db: Session) -> None:
        super().__init__()
        self.db = db

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def platform(self, iss: str, client_id: str | None) -> LtiPlatform | None:
        query = select(LtiPlatform).where(LtiPlatform.issuer == str(iss or ""))
        if client_id:
            query = query.where(LtiPlatform.client_id == str(client_id))
        found = self.db.scalars(query.limit(2)).all()
        return found[0] if len(found) == 1 else None

    def knows_issuer(self, iss: str) -> bool:
        return self.db.scalar(select(LtiPlatform.id).where(LtiPlatform.issuer == str(iss or "")).limit(1)) is not None

    def find_registration_by_issuer(self, iss: str, *args, **kwargs) -> Registration | None:
        return self.find_registration_by_params(iss, None)

    def find_registration_by_params(self, iss: str, client_id: str | None, *args, **kwargs) -> Registration | None:
        platform = self.platform(iss, client_id)
        if platform is None:
            return None
        signing = platform.keys[-1]
        return (
            Registration()
            .set_issuer(platform.issuer)
            .set_client_id(platform.client_id)
            .set_auth_login_url(platform.login_url)
            .set_auth_token_url(platform.token_url)
            .set_key_set_url(platform.keyset_url)
            .set_tool_private_key(signing.private_pem)
            .set_tool_public_key(signing.public_pem)
        )

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        return self.find_deployment_by_params(iss, deployment_id, None)

    def find_deployment_by_params(
        self, iss: str, deployment_id: str, client_id: str | None, *args, **kwargs
    ) -> Deployment | None:
        platform = self.platform(iss, client_id)
        if platform is None or str(deployment_id) not in platform.deployment_ids:
            return None
        return Deployment().set_deployment_id(str(deployment_id))
