package dev.ourios.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ourios.compaction.verify.RowChecksum;
import dev.ourios.core.LogRecord;
import dev.ourios.gen.GeneratorSpec;
import dev.ourios.gen.LogGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SoakPartsTest {
    private static final Instant H0 = Instant.parse("2026-03-01T00:00:00Z");

    @Test
    void scheduleLandsOnTimeFilesInTheirHourAndLateFilesAfterTheNextHoursGrace() {
        Duration grace = Duration.ofMinutes(15);
        List<Landing> s = LandingSchedule.build(List.of("a", "b"), H0, 3, 4, 2, grace);
        assertEquals(2 * 3 * 4 + 2 * 2 * 2, s.size());
        for (int i = 1; i < s.size(); i++) {
            assertTrue(!s.get(i).at().isBefore(s.get(i - 1).at()), "sorted by due time");
        }
        for (Landing l : s) {
            Instant hourStart = H0.plus(Duration.ofHours(l.hour()));
            if (l.late()) {
                assertTrue(l.at().isAfter(hourStart.plus(Duration.ofHours(1)).plus(grace)), "after sealing: " + l);
                assertTrue(l.at().isBefore(hourStart.plus(Duration.ofHours(2))), "within the next hour: " + l);
                assertTrue(l.file() >= 4 && l.hour() < 2, l.toString());
            } else {
                assertTrue(!l.at().isBefore(hourStart) && l.at().isBefore(hourStart.plus(Duration.ofHours(1))),
                        l.toString());
            }
        }
        assertEquals(s.size(), s.stream().map(l -> l.tenant() + l.hour() + "/" + l.file()).distinct().count(),
                "no file scheduled twice");
    }

    @Test
    void digestsOfPartsAddUpToTheChecksumOfTheWhole() {
        LogGenerator g = new LogGenerator(GeneratorSpec.of(List.of("t"), H0, 1, 3, 200, 5));
        List<LogRecord> all = new ArrayList<>();
        Digest sum = Digest.EMPTY;
        for (int f = 0; f < 3; f++) {
            List<LogRecord> rows = g.file("t", 0, f);
            all.addAll(rows);
            sum = sum.plus(Digest.parse(RowChecksum.of(rows)));
        }
        assertEquals(RowChecksum.of(all), sum.toString());
        assertNotEquals(Digest.parse(RowChecksum.of(all.subList(1, all.size()))), sum, "a missing row shows");
        assertThrows(IllegalArgumentException.class, () -> Digest.parse("12:abc"));
    }

    @Test
    void tappedRowsDigestExactlyWhatWasIterated() {
        LogGenerator g = new LogGenerator(GeneratorSpec.of(List.of("t"), H0, 1, 1, 50, 5));
        TappedRows rows = new TappedRows(() -> g.stream("t", 0, 0), 50);
        List<LogRecord> seen = new ArrayList<>(rows);
        assertEquals(Digest.parse(RowChecksum.of(seen)), rows.digest());
        assertEquals(50, rows.digest().rows());
    }

    @Test
    void clockRunsAtItsSpeedAndMapsBackToWallTime() {
        AtomicLong ticks = new AtomicLong(1_000);
        SoakClock c = new SoakClock(H0, 1_000, 120, ticks::get);
        assertEquals(H0, c.instant());
        ticks.set(1_000 + 30_000_000_000L); // 30 wall seconds = one simulated hour
        assertEquals(H0.plus(Duration.ofHours(1)), c.instant());
        assertEquals(1_000 + 15_000_000_000L, c.wallNanosAt(H0.plus(Duration.ofMinutes(30))));
    }

    @Test
    void optionsParseAndRejectWhatCannotRun() {
        SoakOptions o = SoakOptions.parse(List.of("--tenants", "8", "--rate", "100000", "--hours", "12",
                "--simulated", "--hour-seconds", "30", "--seed", "3"));
        assertEquals(8, o.tenants());
        assertEquals(120, o.speed(), 1e-9);
        assertEquals(Math.round(100_000 * 30.0 / (8 * 14)), o.rowsPerFile());
        assertTrue(o.command().contains("--tenants 8 --rate 100000 --hours 12 --simulated --hour-seconds 30"));
        assertEquals(3600, SoakOptions.parse(List.of("--tenants", "1", "--rate", "10", "--hours", "1",
                "--real-time", "--files-per-hour", "2", "--late-files", "0")).hourSeconds());
        assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(List.of("--tenants", "1")));
        assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(List.of("--tenants", "1", "--rate",
                "1", "--hours", "1", "--hour-seconds", "1")), "fewer than one row per file");
        assertThrows(IllegalArgumentException.class, () -> SoakOptions.parse(List.of("--tenants", "1", "--rate",
                "100", "--hours", "1", "--grace", "50m")));
    }

    @Test
    void refusesToEmptyADirectoryThatIsNotASoaksOwn(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("precious.txt"), "data");
        assertThrows(IllegalArgumentException.class, () -> SoakRun.prepare(dir));
        assertTrue(Files.exists(dir.resolve("precious.txt")));
        Path own = dir.resolve("own");
        SoakRun.prepare(own);
        Files.writeString(own.resolve("left-over"), "x");
        SoakRun.prepare(own);
        assertTrue(Files.notExists(own.resolve("left-over")), "a previous soak's directory is emptied");
    }
}
