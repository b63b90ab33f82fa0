package dev.ourios.store;

import dev.ourios.core.FileNames;
import java.io.IOException;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A store that kills its process at one named step of the compaction protocol, for crash tests: the product is
 * handed this wrapper as its store, and the step is recognised by the store call that completes it, so no product
 * class knows a crash point exists. The kill is {@link Runtime#halt} with {@link #HALT_STATUS} (no shutdown hooks,
 * no finally blocks, no flushes): exactly what a SIGKILL leaves behind, but at a chosen moment rather than a random
 * one, which a random kill cannot hit reliably.
 *
 * <p>The steps ({@link Step}), each recognised by a call on the delegate that returned:
 * <ul>
 *   <li>{@code mid-rewrite}: part of a compacted output ({@code *.compacted.parquet}) is written to its stream and
 *       flushed, so its temp file exists with row groups in it; the output is not published. The halt comes once
 *       the stream took {@link #MID_REWRITE_BYTES}, or at its publish if the output is smaller;</li>
 *   <li>{@code after-output-published}: a compacted output is published (complete, invisible until a manifest
 *       names it; the rewriter publishes only after the checksums matched); no manifest is written;</li>
 *   <li>{@code after-commit}: a {@code manifest.<gen>.json} is created (the commit); its audit event is not
 *       written;</li>
 *   <li>{@code after-share-record}: a share record ({@code share.*.json}) of a rewrite shared between compactor
 *       processes is created; no manifest is written by this process;</li>
 *   <li>{@code mid-gc}: the first object is deleted (GC runs first in a sweep, so that is GC's first delete).</li>
 * </ul>
 */
public final class HaltingObjectStore extends ForwardingObjectStore {
    /** The exit status of a halted process: what a shell reports for SIGKILL (128 + 9). */
    public static final int HALT_STATUS = 137;
    /** How much of a compacted output the mid-rewrite step lets through before it halts. */
    public static final long MID_REWRITE_BYTES = 16 << 10;

    /** A named step of the compaction protocol the process dies at. */
    public enum Step {
        MID_REWRITE("mid-rewrite"),
        AFTER_OUTPUT_PUBLISHED("after-output-published"),
        AFTER_COMMIT("after-commit"),
        /** After a shared rewrite's share record is published (docs/spec/storage.md 4.14), before any commit. */
        AFTER_SHARE_RECORD("after-share-record"),
        MID_GC("mid-gc");

        private final String label;

        Step(String label) {
            this.label = label;
        }

        /** What a crash test or the chaos harness names this step by. */
        public String label() {
            return label;
        }

        /**
         * The step {@code label} names.
         *
         * @throws IllegalArgumentException if it names none, listing the known ones (a typo never disarms a test)
         */
        public static Step of(String label) {
            for (Step s : values()) {
                if (s.label.equals(label)) {
                    return s;
                }
            }
            throw new IllegalArgumentException("'" + label + "' names no crash step; known: "
                    + Arrays.stream(values()).map(Step::label).collect(Collectors.joining(", ")));
        }
    }

    private final Step step;
    private final Runnable halt;

    /** Wraps {@code delegate} so the process halts at {@code step}. */
    public static HaltingObjectStore haltingAt(ObjectStore delegate, Step step) {
        return new HaltingObjectStore(delegate, step, () -> Runtime.getRuntime().halt(HALT_STATUS));
    }

    /** As {@link #haltingAt}, running {@code halt} at the step instead (a test that must outlive the step). */
    HaltingObjectStore(ObjectStore delegate, Step step, Runnable halt) {
        super(delegate);
        this.step = step;
        this.halt = halt;
    }

    @Override
    public AtomicOutput create(String key) throws IOException {
        AtomicOutput out = delegate.create(key);
        boolean output = key.endsWith(FileNames.COMPACTED);
        return output && (step == Step.MID_REWRITE || step == Step.AFTER_OUTPUT_PUBLISHED) ? new Watched(out) : out;
    }

    @Override
    public boolean putIfAbsent(String key, byte[] content) throws IOException {
        boolean created = delegate.putIfAbsent(key, content);
        if (created && step == Step.AFTER_COMMIT && FileNames.manifestGeneration(name(key)) >= 0) {
            halt.run();
        }
        if (created && step == Step.AFTER_SHARE_RECORD && FileNames.isShareRecord(name(key))) {
            halt.run();
        }
        return created;
    }

    @Override
    public void delete(String key) throws IOException {
        delegate.delete(key);
        if (step == Step.MID_GC) {
            halt.run();
        }
    }

    private static String name(String key) {
        return key.substring(key.lastIndexOf('/') + 1);
    }

    /** A compacted output's stream, halting part-way through it (mid-rewrite) or right after its publish. */
    private final class Watched extends AtomicOutput {
        private final AtomicOutput out;

        Watched(AtomicOutput out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            haltIfFarEnough();
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            haltIfFarEnough();
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public long position() {
            return out.position();
        }

        @Override
        public void commit() throws IOException {
            if (step == Step.MID_REWRITE) {
                haltMidRewrite(); // an output smaller than the threshold: halt with all of it written, unpublished
            }
            out.commit();
            if (step == Step.AFTER_OUTPUT_PUBLISHED) {
                halt.run();
            }
        }

        @Override
        public void abort() {
            out.abort();
        }

        private void haltIfFarEnough() throws IOException {
            if (step == Step.MID_REWRITE && out.position() >= MID_REWRITE_BYTES) {
                haltMidRewrite();
            }
        }

        /** What was written reaches the temp file first, so the half-written output is there to find. */
        private void haltMidRewrite() throws IOException {
            out.flush();
            halt.run();
        }
    }
}
