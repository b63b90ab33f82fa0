package dev.ourios.core;

/** The {@code body_kind} column's values (RFC 0025). */
public final class BodyKind {
    public static final int STRING = 0;
    public static final int STRUCTURED = 1;
    public static final int ABSENT = 2;

    private BodyKind() {
    }
}
