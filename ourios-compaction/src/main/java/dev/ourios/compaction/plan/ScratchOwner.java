package dev.ourios.compaction.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The process that owns a scratch entry, written into the entry's name: {@code <kind>-<pid>-<start>-<random>},
 * {@code start} being the process's start time in epoch milliseconds. The pid alone is not enough because pids are
 * reused; a pid whose process started at another time is a different process. Debris collection deletes only
 * entries whose owner is gone, so a long merge that has not touched its directory for hours is never removed.
 *
 * @param pid         process id
 * @param startMillis the process's start time in epoch milliseconds; 0 when the platform does not report it
 */
public record ScratchOwner(long pid, long startMillis) {
    /** Start times read twice for the same process can differ by the kernel's clock-tick rounding. */
    private static final long START_TOLERANCE_MILLIS = Duration.ofSeconds(1).toMillis();
    private static final Pattern NAME = Pattern.compile("[a-z]+-(\\d{1,19})-(\\d{1,19})-.*", Pattern.DOTALL);

    /** This process. */
    public static ScratchOwner current() {
        ProcessHandle self = ProcessHandle.current();
        return new ScratchOwner(self.pid(), self.info().startInstant().map(Instant::toEpochMilli).orElse(0L));
    }

    /** The prefix of a new scratch entry of {@code kind} ("sort", "audit"), ready for a random suffix. */
    public String prefix(String kind) {
        return kind + "-" + pid + "-" + startMillis + "-";
    }

    /** The owner named by a scratch entry, or empty for a name without one. */
    public static Optional<ScratchOwner> parse(String name) {
        Matcher m = NAME.matcher(name);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ScratchOwner(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
        } catch (NumberFormatException e) {
            return Optional.empty(); // more digits than a long holds: not a name this code wrote
        }
    }

    /**
     * True while the owning process runs. A live process with that pid but another start time is a reused pid, so
     * the owner is gone. When the platform reports no start time, a live pid counts as the owner: keeping debris a
     * while longer is the safe mistake.
     */
    public boolean isAlive() {
        Optional<ProcessHandle> h = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (h.isEmpty()) {
            return false;
        }
        Optional<Instant> started = h.get().info().startInstant();
        if (started.isEmpty() || startMillis == 0) {
            return true;
        }
        return Math.abs(started.get().toEpochMilli() - startMillis) <= START_TOLERANCE_MILLIS;
    }
}
