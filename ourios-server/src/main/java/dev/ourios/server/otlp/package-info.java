/**
 * The OTLP/HTTP transport of the ingester ({@link dev.ourios.server.otlp.OtlpHttpReceiver}, {@code POST /v1/logs}):
 * media types, gzip, the heap budget of bodies ({@link dev.ourios.server.otlp.BodyReader}) and errors as
 * {@code google.rpc.Status} ({@link dev.ourios.server.otlp.RpcStatus}); the write-ahead log, flushing and decoding
 * are {@code ourios-ingest}'s.
 */
package dev.ourios.server.otlp;
