"""SQLite persistence through aiosqlite: numbered migrations and one repository."""

from bot.storage.database import Database, DatabaseUnusable, open_database
from bot.storage.repository import Repository, VersionConflict

__all__ = ["Database", "DatabaseUnusable", "Repository", "VersionConflict", "open_database"]
