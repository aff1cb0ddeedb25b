"""SQLite, the embedded engine: one aiosqlite connection, its migrations, its SQL (see
docs/DESIGN.md, Storage). Only ``bot/storage/`` imports it."""
