-- PostgreSQL twin of migrations/0005_due_leases.sql: leases on due work.

CREATE TABLE due_leases (
    table_id    BIGINT PRIMARY KEY,
    owner       TEXT NOT NULL,
    until       DOUBLE PRECISION NOT NULL
);
