-- Leases on due work (AI moves, timers, next deals): with several workers on one
-- PostgreSQL database a worker claims a table's due step before running it, so the
-- others skip it instead of computing the same step; a dead worker's lease runs out.
-- SQLite (one process) keeps the table for the same schema on both dialects.

CREATE TABLE due_leases (
    table_id    INTEGER PRIMARY KEY,   -- tables.id
    owner       TEXT NOT NULL,         -- the worker that holds it
    until       REAL NOT NULL          -- Unix time the lease runs out
);
