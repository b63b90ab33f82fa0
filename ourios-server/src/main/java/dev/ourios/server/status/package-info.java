/**
 * {@code GET /v1/status}: the figures of the store page — per tenant its hours, live files and bytes, the
 * compaction backlog, the last sweeps, ingest, the Iceberg view and retention — computed with bounded work: the
 * store's figures come from one walk cached for {@link dev.ourios.server.status.StoreFigures#MAX_AGE}, the rest from
 * what the running service already holds.
 */
package dev.ourios.server.status;
