-- PostgreSQL twin of migrations/0007_due_claims.sql: a lease names the table version it
-- was taken for (the step's commit ends it by raising the version).

ALTER TABLE due_leases ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
