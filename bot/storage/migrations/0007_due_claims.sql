-- A lease on due work names the table version it was taken for: the commit of the step
-- raises the version, which ends the lease without a statement of its own. Claims take
-- due tables in one statement, skipping rows another worker has locked.

ALTER TABLE due_leases ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
