/**
 * The HTTP server both network surfaces of Ourios run on (the query API and the OTLP/HTTP receiver): Jetty's core
 * API behind {@link dev.ourios.http.HttpServer}, built from one {@link dev.ourios.http.ServerOptions} (listen address,
 * TLS, header/body/idle timeouts, thread pool, connection and header limits). Every response it sends on its own
 * (unknown path, wrong method, malformed request, oversize header or body, internal error) is JSON, and every
 * response carries an {@code X-Request-Id} that the server log repeats for failures.
 */
package dev.ourios.http;
