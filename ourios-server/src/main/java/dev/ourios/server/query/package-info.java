/**
 * The query API ({@link dev.ourios.server.query.HttpApi}): {@code POST /v1/query} with bounded pages, slots and
 * cursors ({@link dev.ourios.server.query.QueryPages}, {@link dev.ourios.server.query.QuerySlots},
 * {@link dev.ourios.server.query.QueryCursor}), {@code GET /v1/files}, {@code POST /v1/delete}
 * ({@link dev.ourios.server.query.DeleteEndpoint}), {@code /healthz} and {@code /readyz}
 * ({@link dev.ourios.server.query.StoreProbe}); the JSON of a record and of a deletion, which the command line
 * prints too ({@link dev.ourios.server.query.RecordJson}, {@link dev.ourios.server.query.DeletionJson}).
 */
package dev.ourios.server.query;
