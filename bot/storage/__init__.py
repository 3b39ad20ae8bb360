"""Persistence: SQLite through aiosqlite (PostgreSQL through asyncpg), numbered
migrations, and the repository of :mod:`bot.service.repository` implemented on them."""

from bot.storage.database import Database, DatabaseUnusable, open_database
from bot.storage.repository import SqliteRepository

__all__ = ["Database", "DatabaseUnusable", "SqliteRepository", "open_database"]
