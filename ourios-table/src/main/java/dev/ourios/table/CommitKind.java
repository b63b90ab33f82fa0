package dev.ourios.table;

import java.util.Locale;
import java.util.Optional;

/**
 * What a commit did to its partition (STORAGE.md §3.1, {@code commit.kind}). Every kind rides the same create-only
 * manifest commit, so a reader sees a partition entirely before or entirely after it.
 */
public enum CommitKind {
    /** Live files merged into one sorted output; every row kept. */
    COMPACT,
    /** The partition's whole hour is older than the tenant's retention: every live file retired, {@code files: []}. */
    EXPIRE,
    /** A deletion request: live files rewritten without the matching rows (no output when nothing is kept). */
    DELETE,
    /**
     * A day partition's commit (STORAGE.md §4.15): small hours' rows and late files moved into the day's files, the
     * hours covered at their generations; every row kept.
     */
    ROLLUP;

    /** The name in the manifest and in audit events. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The kind a manifest's {@code commit.kind} names; empty for a name this build does not know. */
    public static Optional<CommitKind> ofLabel(String label) {
        for (CommitKind k : values()) {
            if (k.label().equals(label)) {
                return Optional.of(k);
            }
        }
        return Optional.empty();
    }
}
