package dev.ourios.server.status;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ourios.compaction.PartitionResult;
import dev.ourios.compaction.sweep.SweepReport;
import dev.ourios.server.sweep.SweepLoop;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The last sweeps kept for the store page: at most {@link SweepHistory#KEPT}, newest first, every event passed on. */
class SweepHistoryTest {
    @Test
    void keeps_the_newest_sweeps_and_passes_every_event_on() {
        List<String> passed = new ArrayList<>();
        SweepLoop.Listener log = new SweepLoop.Listener() {
            @Override
            public void started(long sweep) {
                passed.add("start " + sweep);
            }

            @Override
            public void partition(PartitionResult result) {
                passed.add("partition");
            }

            @Override
            public void finished(long sweep, SweepReport report) {
                passed.add("end " + sweep);
            }
        };
        SweepHistory h = new SweepHistory(log, Clock.fixed(Instant.parse("2026-11-01T10:00:00Z"), ZoneOffset.UTC));
        for (long s = 1; s <= 25; s++) {
            h.started(s);
            h.finished(s, new SweepReport(List.of(), (int) s, s * 10, s % 5 == 0 ? List.of("boom") : List.of(),
                    s / 10.0));
        }
        List<SweepHistory.Sweep> last = h.last();
        assertEquals(SweepHistory.KEPT, last.size());
        assertEquals(25, last.get(0).sweep());
        assertEquals(16, last.get(SweepHistory.KEPT - 1).sweep());
        assertEquals(1, last.get(0).errors(), "a sweep-level error counts");
        assertEquals(2.5, last.get(0).seconds());
        assertEquals(250, last.get(0).gcBytes());
        assertEquals(50, passed.size(), "every start and end reached the wrapped listener");
    }
}
