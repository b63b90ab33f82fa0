package dev.ourios.security;

import java.util.Locale;
import java.util.Optional;

/** What a key may do. {@code admin} includes the other two. */
public enum Scope {
    /** Send logs: {@code POST /v1/logs}. */
    INGEST,
    /** Read logs: {@code POST /v1/query}, {@code GET /v1/files}. */
    QUERY,
    /** Everything a key's tenants allow, including administrative endpoints ({@code POST /v1/delete}). */
    ADMIN;

    /** The name in the keys file and on the command line. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Scope> parse(String name) {
        for (Scope s : values()) {
            if (s.wireName().equals(name)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** True if a key holding this scope may call an endpoint that needs {@code needed}. */
    public boolean grants(Scope needed) {
        return this == ADMIN || this == needed;
    }

    /** The known names, for messages. */
    public static String known() {
        return "ingest, query, admin";
    }
}
