package dev.ourios.bench;

/** One named benchmark suite. */
public interface Suite {
    String name();

    SuiteReport run(BenchContext ctx) throws Exception;
}
