/**
 * The store as an Apache Iceberg table view ({@code ourios iceberg sync}; storage.md, section 10).
 *
 * <p>Derived, never authoritative: {@link dev.ourios.iceberg.IcebergSync} reads the store's live sets
 * ({@link dev.ourios.iceberg.StoreLiveSet}), compares them with the view's current snapshot
 * ({@link dev.ourios.iceberg.SyncPlan}, pure), reads the footers of files to add
 * ({@link dev.ourios.iceberg.FileFooterFacts}) and commits one snapshot whose data files are referenced in place,
 * with partition values and metrics ({@link dev.ourios.iceberg.FileMetricsMapper}) from those footers and the schema
 * of {@link dev.ourios.iceberg.ViewSchema}.
 *
 * <p>Iceberg's library does the table work through two seams of ours: {@link dev.ourios.iceberg.StoreFileIO}
 * (Iceberg's {@code FileIO} over {@code ObjectStore}) and {@link dev.ourios.iceberg.StoreTableOperations} (versions
 * published create-only in the store, no catalog). {@link dev.ourios.iceberg.IcebergRetention} is GC's
 * {@code FileRetention}: it expires superseded snapshots after the grace and keeps every file the others reference.
 * {@link dev.ourios.iceberg.IcebergWiring} builds these for one store.
 */
package dev.ourios.iceberg;
