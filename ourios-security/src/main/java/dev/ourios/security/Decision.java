package dev.ourios.security;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The outcome of {@link Authorizer#authorize}: the tenant the request acts for, or a refusal. */
public sealed interface Decision permits Decision.Allowed, Decision.Denied {

    /**
     * @param tenant  the tenant the request reads or writes
     * @param keyName the key that authenticated it; empty when authorization is off
     */
    record Allowed(String tenant, Optional<String> keyName) implements Decision {
        public Allowed {
            Objects.requireNonNull(tenant, "tenant");
            Objects.requireNonNull(keyName, "keyName");
        }
    }

    /**
     * @param reason  why (its status is the HTTP status)
     * @param field   the header at fault ({@code Authorization} or {@code X-Ourios-Tenant})
     * @param message one line for the client and the log; never the token
     * @param keyName the key, when the token matched one
     */
    record Denied(DenialReason reason, String field, String message, Optional<String> keyName) implements Decision {
        /** The header value a 401 carries. */
        public static final String CHALLENGE = "Bearer realm=\"ourios\"";
        private static final ObjectMapper JSON = new ObjectMapper();

        public Denied {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(keyName, "keyName");
        }

        public int status() {
            return reason.status();
        }

        /** {@code WWW-Authenticate} for a 401 (RFC 6750), empty otherwise. */
        public Optional<String> challenge() {
            return status() == 401 ? Optional.of(CHALLENGE) : Optional.empty();
        }

        /** The query API's error body: {@code {"error":{"status":N,"field":"…","message":"…"}}}. */
        public String errorJson() {
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("status", status());
            error.put("field", field);
            error.put("message", message);
            try {
                return JSON.writeValueAsString(Map.of("error", error));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("BUG: cannot encode a refusal", e);
            }
        }
    }
}
