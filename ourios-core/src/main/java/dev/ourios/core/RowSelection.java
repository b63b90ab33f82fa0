package dev.ourios.core;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * The rows of one tenant that a set of conditions selects: the filters of {@code ourios query} and of a deletion
 * request (cli.md). Every condition is optional except the tenant, which is structural (only that tenant's
 * directory is read). {@link #rowPredicate()} is the exact predicate of the conditions, the one both a query and a
 * deletion decide rows with, so a deletion removes exactly the rows a query with the same filters returns.
 */
public interface RowSelection {
    /** The tenant whose rows are selected. */
    String tenant();

    /** Inclusive lower bound on the row's time ({@link RowTime}). */
    Optional<Instant> from();

    /** Exclusive upper bound on the row's time ({@link RowTime}). */
    Optional<Instant> to();

    /** Exact {@code resource.service.name}. */
    Optional<String> service();

    /** Exact template id (u64 carried bit for bit in a long). */
    OptionalLong templateId();

    /** Minimum {@code severity_number}. */
    OptionalInt severityMin();

    /** Exact 16-byte trace id. */
    Optional<byte[]> traceId();

    /** Substring of the log line (see {@link RowPredicate} for what the line is). */
    Optional<String> bodyContains();

    /** A condition on the whole row beyond the fixed filters (a compiled search), decided last. */
    Optional<RowCondition> condition();

    /** At most this many rows; empty = all. A deletion refuses a limit: it removes every matching row. */
    OptionalLong limit();

    /** The window's lower bound in nanoseconds since the epoch (saturating), or Long.MIN_VALUE. */
    default long fromNanos() {
        return from().map(RowSelection::nanos).orElse(Long.MIN_VALUE);
    }

    /** The window's exclusive upper bound in nanoseconds since the epoch (saturating), or Long.MAX_VALUE. */
    default long toNanos() {
        return to().map(RowSelection::nanos).orElse(Long.MAX_VALUE);
    }

    /** The exact row predicate of the conditions; the tenant and the limit do not apply. */
    default Predicate<LogRecord> rowPredicate() {
        return new RowPredicate(this)::matches;
    }

    /** An instant in nanoseconds since the epoch, saturating at the ends of {@code long}. */
    static long nanos(Instant t) {
        try {
            return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
        } catch (ArithmeticException e) {
            return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
