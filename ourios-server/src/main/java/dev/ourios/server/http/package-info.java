/**
 * The one listener set-up both HTTP surfaces of the service use ({@link dev.ourios.server.http.HttpListener}): the
 * bounded server of {@code ourios-http}, the authorization gate, and one rule for start-up failures.
 */
package dev.ourios.server.http;
