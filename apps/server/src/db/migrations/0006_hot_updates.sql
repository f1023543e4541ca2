-- The metering pass rewrites every running instance's run_charged_fen and every usage order's
-- metered_fen each minute. Neither column is indexed, so with free room on the page PostgreSQL
-- updates them in place (HOT) instead of adding an entry to each of the tables' indexes.
ALTER TABLE "instances" SET (fillfactor = 70);--> statement-breakpoint
ALTER TABLE "orders" SET (fillfactor = 70);
