package dev.ourios.bench;

import java.util.function.Consumer;

/** What every suite gets: the options, the fixture cache and a progress log (stderr; the report goes to stdout). */
public record BenchContext(BenchOptions options, Fixtures fixtures, Consumer<String> log) {

    /** A count scaled by {@code --scale}, never below {@code min}. */
    public int scaled(long full, int min) {
        return (int) Math.max(min, Math.round(full * options.scale()));
    }
}
