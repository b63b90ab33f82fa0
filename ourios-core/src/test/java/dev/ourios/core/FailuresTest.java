package dev.ourios.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class FailuresTest {
    @Test
    void the_first_failure_is_kept_and_later_ones_are_suppressed_by_it_once_each() {
        AtomicReference<Throwable> first = new AtomicReference<>();
        IOException a = new IOException("first");
        IllegalStateException b = new IllegalStateException("second");
        Failures.keepFirst(first, a);
        Failures.keepFirst(first, b);
        Failures.keepFirst(first, a); // the same failure reported again: not suppressed by itself
        assertSame(a, first.get());
        assertArrayEquals(new Throwable[] {b}, a.getSuppressed());
    }

    @Test
    void a_failure_is_raised_again_as_it_is_or_wrapped() {
        IOException io = new IOException("io");
        assertSame(io, assertThrows(IOException.class, () -> Failures.rethrow(io)));
        Exception checked = new Exception("checked");
        assertSame(checked, assertThrows(IOException.class, () -> Failures.rethrow(checked)).getCause());
    }
}
