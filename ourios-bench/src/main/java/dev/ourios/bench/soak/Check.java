package dev.ourios.bench.soak;

/** One invariant the soak asserts at the end, with what was observed. */
public record Check(String name, boolean ok, String observed) {
}
