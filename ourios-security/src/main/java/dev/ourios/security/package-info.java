/**
 * Who may do what over HTTP: API keys (bearer tokens whose SHA-256 hashes live in a keys file), the key ring that
 * follows that file, the {@link dev.ourios.security.Authorizer} that turns a request's headers and the scope an
 * endpoint needs into a tenant or a 400/401/403 refusal, and the percent-encoded tenant header
 * ({@link dev.ourios.security.TenantHeader}).
 *
 * <p>Server-agnostic: everything takes header values as lists of strings, so any HTTP server can call it.
 */
package dev.ourios.security;
