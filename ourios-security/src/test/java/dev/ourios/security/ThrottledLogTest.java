package dev.ourios.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.LegacyAbstractLogger;

/**
 * The refusal log's bound, as a seeded property: whatever the timing of the refusals, each reason gets at most N
 * lines in each one-second window, and every refusal is either a line, counted exactly in the next line of its
 * reason, or still pending that line.
 */
class ThrottledLogTest {
    private static final Pattern SUPPRESSED = Pattern.compile("\\((\\d+) more refusals for (\\S+) not logged\\)$");

    @Test
    void at_most_n_lines_a_second_per_reason_and_every_refusal_written_or_counted() {
        long seed = new Random().nextLong();
        System.out.println("ThrottledLogTest seed " + seed);
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int perSecond = 1 + random.nextInt(5);
            AtomicLong now = new AtomicLong(random.nextLong(1_000_000_000_000L));
            Recording logger = new Recording();
            ThrottledLog log = new ThrottledLog(logger, perSecond, now::get);
            Map<String, int[]> tally = new HashMap<>(); // sent, written, reported as suppressed, pending
            Map<String, List<Long>> writtenAt = new HashMap<>();
            int events = random.nextInt(400);
            for (int i = 0; i < events; i++) {
                now.addAndGet(random.nextInt(4) == 0 ? random.nextInt(1_500_000_000) : random.nextInt(20_000_000));
                String reason = "r" + random.nextInt(3);
                int[] t = tally.computeIfAbsent(reason, r -> new int[4]);
                t[0]++;
                if (log.warn(reason, "refused " + i)) {
                    t[1]++;
                    writtenAt.computeIfAbsent(reason, r -> new ArrayList<>()).add(now.get());
                    Matcher m = SUPPRESSED.matcher(logger.lines.get(logger.lines.size() - 1));
                    int reported = m.find() ? Integer.parseInt(m.group(1)) : 0;
                    assertEquals(t[3], reported, "seed " + seed + ": the line counts exactly the ones dropped");
                    t[2] += reported;
                    t[3] = 0;
                } else {
                    t[3]++;
                }
            }
            for (Map.Entry<String, int[]> e : tally.entrySet()) {
                int[] t = e.getValue();
                assertEquals(t[0], t[1] + t[2] + t[3], "seed " + seed + ": every refusal written, counted or pending");
            }
            for (List<Long> at : writtenAt.values()) {
                // Windows of one second hold perSecond lines each, so any second spans at most two windows' worth.
                for (int i = 2 * perSecond; i < at.size(); i++) {
                    assertTrue(at.get(i) - at.get(i - 2 * perSecond) >= 1_000_000_000L, "seed " + seed);
                }
            }
        }
    }

    @Test
    void a_flood_in_one_second_writes_n_lines_and_the_next_second_counts_the_rest() {
        AtomicLong now = new AtomicLong();
        Recording logger = new Recording();
        ThrottledLog log = new ThrottledLog(logger, 3, now::get);
        for (int i = 0; i < 50; i++) {
            log.warn("400", "refused " + i);
            now.addAndGet(1_000_000); // 1 ms apart: all in one second
        }
        assertEquals(List.of("refused 0", "refused 1", "refused 2"), logger.lines);
        log.warn("401", "other reason");
        assertEquals("other reason", logger.lines.get(3), "reasons are counted apart");
        now.addAndGet(1_000_000_000L);
        log.warn("400", "refused 50");
        assertEquals("refused 50 (47 more refusals for 400 not logged)", logger.lines.get(4));
        log.warn("400", "refused 51");
        assertEquals("refused 51", logger.lines.get(5), "the count starts again");
    }

    /** A logger that keeps its lines. */
    private static final class Recording extends LegacyAbstractLogger {
        private static final long serialVersionUID = 1L;
        final List<String> lines = new ArrayList<>();

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern,
                Object[] arguments, Throwable throwable) {
            lines.add(messagePattern);
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }
}
