package dev.ourios.bench;

/** One way of turning a partition's inputs into one file: ours, sorted or not, or a baseline a user would pick. */
public interface Contender {
    String name();

    /** Compacts the fixture's inputs once, timing only the compaction, and removes its output afterwards. */
    Outcome run(Fixture fixture) throws Exception;
}
