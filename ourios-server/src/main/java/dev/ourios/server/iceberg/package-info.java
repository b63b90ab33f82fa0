/**
 * The Iceberg view's syncer thread ({@link dev.ourios.server.iceberg.IcebergSyncLoop}): the partitions this process
 * changed reach the view at most every sync interval, and a full reconciliation runs every reconcile interval.
 */
package dev.ourios.server.iceberg;
