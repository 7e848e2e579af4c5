"""Alembic environment: migrations run from code (tutor.db.upgrade) or `alembic -c`."""

from alembic import context

from tutor.db import make_engine
from tutor.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    engine = make_engine(config.get_main_option("sqlalchemy.url"))
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            # Batch mode copies a table and drops the old one; with foreign keys on, that drop
            # would cascade to every row that refers to it (a pupil's runs and answers).
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        # Batch mode rewrites tables for ALTERs that SQLite cannot do in place.
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations_online()
