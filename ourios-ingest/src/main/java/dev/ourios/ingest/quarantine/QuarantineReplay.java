package dev.ourios.ingest.quarantine;

import dev.ourios.ingest.flush.SegmentFlusher;
import dev.ourios.ingest.wal.SealedSegment;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Flushes quarantined segments into the store, as the flush loop would have, and releases each once its records
 * are published. The flush is the idempotent one of a recovered segment (names derived from the segment), so a
 * replay that stops half-way and runs again lands no row twice. A segment that fails again stays quarantined.
 */
public final class QuarantineReplay {
    private final SegmentQuarantine quarantine;
    private final SegmentFlusher flusher;

    public QuarantineReplay(SegmentQuarantine quarantine, SegmentFlusher flusher) {
        this.quarantine = quarantine;
        this.flusher = flusher;
    }

    /** What became of one segment: {@code error} null when it was published and released. */
    public record Outcome(SegmentQuarantine.Entry entry, int files, String error) {
        public boolean replayed() {
            return error == null;
        }
    }

    public List<Outcome> replayAll() throws IOException {
        List<Outcome> out = new ArrayList<>();
        for (SegmentQuarantine.Entry e : quarantine.list()) {
            try {
                int files = flusher.flush(new SealedSegment(e.segment(), e.bytes(), true), true).size();
                quarantine.release(e);
                out.add(new Outcome(e, files, null));
            } catch (IOException | RuntimeException x) {
                out.add(new Outcome(e, 0, SegmentQuarantine.reason(x)));
            }
        }
        return out;
    }
}
