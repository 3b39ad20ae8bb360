"""SQLite persistence through aiosqlite: numbered migrations and one repository."""

from bot.storage.database import Database, open_database
from bot.storage.repository import Repository, VersionConflict

__all__ = ["Database", "Repository", "VersionConflict", "open_database"]
