"""The PostgreSQL engine (``DATABASE_URL``): the SQLite engine's writers and readers, their
SQL said in PostgreSQL's dialect, sent in pipeline mode (docs/DESIGN.md, Storage)."""
