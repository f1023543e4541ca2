-- Every metering pass rewrites the time-pack columns of every running elastic container
-- (run_pack_seconds, run_pack_checked_seconds, in no index). Room left on each page keeps those
-- updates heap-only (HOT): no new index entries, the page pruned in place.
ALTER TABLE "instances" SET (fillfactor = 70);
