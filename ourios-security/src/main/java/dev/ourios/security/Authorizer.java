package dev.ourios.security;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides one request from its {@code Authorization} and {@code X-Ourios-Tenant} header values and the scope its
 * endpoint needs. Takes header values as lists (every value the request carried, in order), so it works with any
 * HTTP server.
 *
 * <p>With keys (a {@link KeyRing}), in this order:
 * <ol>
 *   <li>401 without exactly one {@code Authorization: Bearer <token>} whose token is a key of the file, not revoked
 *       (two {@code Authorization} headers are 400);</li>
 *   <li>400 for two tenant headers or one that does not decode ({@link TenantHeader});</li>
 *   <li>403 when the key lacks the scope;</li>
 *   <li>the tenant: the header's, if the key may use it (else 403); without a header, a one-tenant key's tenant, a
 *       {@code "*"} key's {@code default}, and 400 for a key of several tenants.</li>
 * </ol>
 * Without keys, authorization is off: every request is allowed, for the header's tenant or {@code default}; two
 * tenant headers or a malformed one are still 400.
 *
 * <p>Every refusal is logged (WARN, with the request id, client address, path, the tenant header as sent and the
 * key's name when the token matched one; never the token; at most {@link #LOG_LINES_PER_SECOND} lines a second per
 * reason) and counted through the {@link DenialRecorder}. Tenants appear in messages in their header encoding, which is plain ASCII.
 */
public final class Authorizer {
    public static final String AUTHORIZATION = "Authorization";
    public static final String DEFAULT_TENANT = "default";
    /** Refusal lines a second per reason; the rest are counted in the next line. */
    public static final int LOG_LINES_PER_SECOND = 10;
    /** How much of a tenant header a log line quotes. */
    private static final int LOGGED_TENANT_CHARS = 64;
    private static final Logger LOG = LoggerFactory.getLogger(Authorizer.class);
    private static final String BEARER = "bearer ";
    private final Optional<KeyRing> keys;
    private final DenialRecorder recorder;
    private final ThrottledLog refusals = new ThrottledLog(LOG, LOG_LINES_PER_SECOND);

    private Authorizer(Optional<KeyRing> keys, DenialRecorder recorder) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
    }

    /** Authorization by the keys of {@code keys}. */
    public static Authorizer withKeys(KeyRing keys, DenialRecorder recorder) {
        return new Authorizer(Optional.of(keys), recorder);
    }

    /** No keys file: every request allowed (the loopback default). */
    public static Authorizer off(DenialRecorder recorder) {
        return new Authorizer(Optional.empty(), recorder);
    }

    public boolean enabled() {
        return keys.isPresent();
    }

    /**
     * The tenants the request's key may use, for a request the gate has already allowed: {@link TenantGrant#every()}
     * when no keys file is in use; empty when the headers name no valid, unrevoked key.
     */
    public Optional<TenantGrant> grantOf(List<String> authorization) {
        if (keys.isEmpty()) {
            return Optional.of(TenantGrant.every());
        }
        if (authorization.size() != 1) {
            return Optional.empty();
        }
        String value = authorization.get(0).strip();
        if (!value.toLowerCase(Locale.ROOT).startsWith(BEARER) || value.substring(BEARER.length()).isBlank()) {
            return Optional.empty();
        }
        return keys.get().current().matching(TokenHash.of(value.substring(BEARER.length()).strip()))
                .filter(k -> !k.isRevoked()).map(ApiKey::tenants);
    }

    /**
     * @param authorization every {@code Authorization} value of the request
     * @param tenantHeader  every {@code X-Ourios-Tenant} value of the request
     * @param needed        the scope of the endpoint
     */
    public Decision authorize(List<String> authorization, List<String> tenantHeader, Scope needed) {
        return authorize(authorization, tenantHeader, needed, Caller.UNKNOWN);
    }

    /**
     * As {@link #authorize(List, List, Scope)}, naming {@code caller} in the log line of a refusal.
     */
    public Decision authorize(List<String> authorization, List<String> tenantHeader, Scope needed, Caller caller) {
        Decision d;
        try {
            d = decide(List.copyOf(authorization), List.copyOf(tenantHeader), needed);
        } catch (Refusal r) {
            d = r.denied;
        }
        if (d instanceof Decision.Denied denied) {
            refusals.warn(denied.reason().wireName(), "request " + caller.requestId() + " from " + caller.address()
                    + " " + caller.path() + " refused (" + denied.status() + " " + denied.reason().wireName()
                    + ", key " + denied.keyName().map(n -> "'" + n + "'").orElse("none") + ", tenant "
                    + loggedTenant(tenantHeader) + "): " + denied.message());
            recorder.denied(denied.reason());
        }
        return d;
    }

    /** The tenant header as sent (cut to a bounded length), or the default's name without one. */
    private static String loggedTenant(List<String> values) {
        if (values.isEmpty()) {
            return "(none: " + DEFAULT_TENANT + ")";
        }
        String v = String.join(",", values);
        return v.length() <= LOGGED_TENANT_CHARS ? "'" + v + "'"
                : "'" + v.substring(0, LOGGED_TENANT_CHARS) + "…' (" + v.length() + " chars)";
    }

    private Decision decide(List<String> authorization, List<String> tenantHeader, Scope needed) {
        if (keys.isEmpty()) {
            return tenant(tenantHeader, Optional.empty()).map(t -> (Decision) new Decision.Allowed(t, Optional.empty()))
                    .orElseGet(() -> new Decision.Allowed(DEFAULT_TENANT, Optional.empty()));
        }
        if (authorization.isEmpty()) {
            return deny(DenialReason.MISSING_KEY, AUTHORIZATION, "no API key: send 'Authorization: Bearer <token>'",
                    null);
        }
        if (authorization.size() > 1) {
            return deny(DenialReason.BAD_HEADER, AUTHORIZATION, AUTHORIZATION + ": given " + authorization.size()
                    + " times; send one", null);
        }
        String value = authorization.get(0).strip();
        if (!value.toLowerCase(Locale.ROOT).startsWith(BEARER) || value.substring(BEARER.length()).isBlank()) {
            return deny(DenialReason.NOT_BEARER, AUTHORIZATION, AUTHORIZATION + ": expected 'Bearer <token>'", null);
        }
        TokenHash presented = TokenHash.of(value.substring(BEARER.length()).strip());
        Optional<ApiKey> match = keys.get().current().matching(presented);
        if (match.isEmpty()) {
            return deny(DenialReason.UNKNOWN_KEY, AUTHORIZATION, "unknown API key", null);
        }
        ApiKey key = match.get();
        if (key.isRevoked()) {
            return deny(DenialReason.REVOKED_KEY, AUTHORIZATION, "API key '" + key.name() + "' is revoked",
                    key.name());
        }
        Optional<String> asked = tenant(tenantHeader, Optional.of(key.name()));
        if (!key.grants(needed)) {
            return deny(DenialReason.SCOPE, AUTHORIZATION, "API key '" + key.name() + "' lacks the scope '"
                    + needed.wireName() + "'", key.name());
        }
        if (asked.isPresent()) {
            if (!key.tenants().allows(asked.get())) {
                return deny(DenialReason.TENANT, TenantHeader.NAME, "API key '" + key.name() + "' may not use tenant '"
                        + TenantHeader.encode(asked.get()) + "'", key.name());
            }
            return new Decision.Allowed(asked.get(), Optional.of(key.name()));
        }
        if (key.tenants().any()) {
            return new Decision.Allowed(DEFAULT_TENANT, Optional.of(key.name()));
        }
        return key.tenants().sole().map(t -> (Decision) new Decision.Allowed(t, Optional.of(key.name())))
                .orElseGet(() -> deny(DenialReason.BAD_HEADER, TenantHeader.NAME, TenantHeader.NAME + ": required: "
                        + "API key '" + key.name() + "' may use several tenants", key.name()));
    }

    /** The tenant the headers name, empty without one; a refusal for two or a malformed one. */
    private Optional<String> tenant(List<String> values, Optional<String> keyName) {
        if (values.isEmpty()) {
            return Optional.empty();
        }
        if (values.size() > 1) {
            throw new Refusal(deny(DenialReason.BAD_HEADER, TenantHeader.NAME, TenantHeader.NAME + ": given "
                    + values.size() + " times; send one", keyName.orElse(null)));
        }
        try {
            return Optional.of(TenantHeader.decode(values.get(0).strip()));
        } catch (TenantHeaderException e) {
            throw new Refusal(deny(DenialReason.BAD_HEADER, TenantHeader.NAME, e.getMessage(), keyName.orElse(null)));
        }
    }

    private static Decision.Denied deny(DenialReason reason, String field, String message, String keyName) {
        return new Decision.Denied(reason, field, message, Optional.ofNullable(keyName));
    }

    /** Carries a refusal out of the tenant parsing; never escapes this class. */
    private static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Decision.Denied denied;

        Refusal(Decision.Denied denied) {
            super(denied.message(), null, false, false);
            this.denied = denied;
        }
    }
}
