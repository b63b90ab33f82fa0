/**
 * The service of {@code ourios serve}: {@link dev.ourios.server.Server} runs the query API, the OTLP/HTTP logs
 * receiver, the compaction daemon and the Iceberg view's syncer on one store until SIGTERM drains them, from a
 * {@link dev.ourios.server.ServerSettings} record (one record per concern). It reads no flag, file or environment
 * variable: the command line resolves those into the settings. A setting it cannot start with is a
 * {@link dev.ourios.server.StartupException} naming it.
 */
package dev.ourios.server;
